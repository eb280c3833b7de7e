import { randomUUID } from "node:crypto";
import { resolveSession } from "../../../lib/auth/sessions";
import { newToken } from "../../../lib/auth/tokens";
import { sha256Hex } from "../../../lib/ids";
import { incrementCounter } from "../../../lib/store/counters";
import { claimFirstPlatformAdmin } from "../../../lib/store/platform-admin";
import { putSession } from "../../../lib/store/sessions";
import { signupOwner } from "../../support/api";

describe("sessions in the store", () => {
  test("an expired session is refused even while its item lingers (TTL deletes lazily)", async () => {
    const owner = await signupOwner("expired");
    const token = newToken("session");
    await putSession(sha256Hex(token), {
      userId: owner.userId,
      orgId: owner.orgId,
      createdAt: new Date(Date.now() - 3600_000).toISOString(),
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    await expect(resolveSession(token)).rejects.toMatchObject({ code: "SESSION_EXPIRED", status: 401 });
  });

  test("a valid session resolves to the member's role and the organization's plan", async () => {
    const owner = await signupOwner("resolve");
    const principal = await resolveSession(owner.token);
    expect(principal).toMatchObject({ kind: "session", userId: owner.userId, orgId: owner.orgId, role: "owner", plan: "free" });
    expect(principal.permissions.has("team.manage")).toBe(true);
  });
});

describe("the first platform admin claim", () => {
  test("exactly one of many concurrent claimers wins", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => claimFirstPlatformAdmin(`org_${randomUUID()}`, `usr_${randomUUID()}`).catch(() => false)),
    );
    // The marker may have been claimed by an earlier run of this file against the same table.
    expect(results.filter(Boolean).length).toBeLessThanOrEqual(1);
    expect(await claimFirstPlatformAdmin("org_late", "usr_late")).toBe(false);
  });
});

describe("fixed-window counters", () => {
  test("count atomically per window and reset in the next window", async () => {
    const subject = randomUUID();
    const now = Date.UTC(2030, 0, 1, 0, 0, 10);
    const counts = await Promise.all(Array.from({ length: 20 }, () => incrementCounter("test", subject, 60, now)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(counts[0]?.resetAt).toBe(Date.UTC(2030, 0, 1, 0, 1, 0) / 1000);
    const next = await incrementCounter("test", subject, 60, now + 60_000);
    expect(next.count).toBe(1);
  });
});
