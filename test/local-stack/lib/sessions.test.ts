import { resolveSession } from "../../../lib/auth/sessions";
import { newToken } from "../../../lib/auth/tokens";
import { sha256Hex } from "../../../lib/ids";
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
