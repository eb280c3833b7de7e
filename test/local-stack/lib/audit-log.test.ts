import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { audited } from "../../../lib/audit";
import type { SessionPrincipal } from "../../../lib/auth/principal";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { newId } from "../../../lib/ids";
import { pageOfAuditEntries } from "../../../lib/store/audit-log";
import { keys } from "../../../lib/store/keys";
import { getSite, saveSiteSettings } from "../../../lib/store/sites";
import { deleteSubmission, deleteSubmissionsAudited } from "../../../lib/store/submissions";
import { createSite, signupOwner } from "../../support/api";

/** The audit log's same-transaction guarantee, at the store (lib/store/audit-log.ts). */

const principalOf = (orgId: string, userId: string): SessionPrincipal =>
  ({ kind: "session", orgId, userId, name: "Store test", email: "store@example.com" }) as SessionPrincipal;

async function storedEntries(orgId: string): Promise<Record<string, unknown>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.auditPartition(orgId) },
    }),
  );
  return out.Items ?? [];
}

describe("audit entries go with their change or not at all", () => {
  test("a settings change refused by its condition (a lost race) writes no entry; the one that lands does, with a year's ttl", async () => {
    const owner = await signupOwner("audit-store");
    const siteId = await createSite(owner, "Raced");
    const site = await getSite(owner.orgId, siteId);
    if (!site) throw new Error("no site");
    const entry = audited(principalOf(owner.orgId, owner.userId), "192.0.2.7", "site.captcha_secret_changed", {
      type: "site",
      id: siteId,
    });
    const next = {
      ...site,
      captcha: { provider: "challenge" as const, siteKey: "pk", secretKey: "s" },
      updatedAt: new Date().toISOString(),
    };
    // Another writer changed the site since it was read: the update's condition refuses, the entry goes with it.
    expect(await saveSiteSettings(next, "1999-01-01T00:00:00.000Z", [entry])).toBe("CONFLICT");
    expect(await storedEntries(owner.orgId)).toEqual([]);

    expect(await saveSiteSettings(next, site.updatedAt, [entry])).toEqual(next);
    const [stored] = await storedEntries(owner.orgId);
    expect(stored).toMatchObject({ action: "site.captcha_secret_changed", actorId: owner.userId, type: "audit_entry" });
    const at = Date.parse(String(stored?.at));
    expect(stored?.ttl).toBe(Math.floor(at / 1000) + 365 * 86_400);
  });

  test("a delete of another organization's submission cancels its entry; chunks of 99 each carry their own", async () => {
    const owner = await signupOwner("audit-chunks");
    const principal = principalOf(owner.orgId, owner.userId);
    const foreign = newId("submission");
    expect(
      await deleteSubmission(
        foreign,
        owner.orgId,
        audited(principal, "192.0.2.8", "submission.deleted", { type: "submission", id: foreign }),
      ),
    ).toBe("NOT_FOUND");
    expect(await storedEntries(owner.orgId)).toEqual([]);

    const ids = Array.from({ length: 100 }, () => newId("submission"));
    await deleteSubmissionsAudited(ids, (chunk) =>
      audited(principal, "192.0.2.8", "submissions.deleted", { type: "form", id: "frm_x" }, { count: chunk.length }),
    );
    const page = await pageOfAuditEntries(owner.orgId, { action: "submissions.deleted" }, { limit: 10, maxExamined: 100 });
    expect(page.items.map((e) => e.details.count).sort()).toEqual([1, 99]);
  });
});
