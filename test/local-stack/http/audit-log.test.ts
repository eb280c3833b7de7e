import { randomUUID } from "node:crypto";
import { type Account, addMember, api, createSite, platformAdminToken, setPlan, signupOwner } from "../../support/api";
import { createKey } from "../../support/api-keys";
import { apiKeyWith } from "../../support/fixtures";
import { createHook, formOfHook, submitTo } from "../../support/submissions";

/** The audit log (docs/privacy.md, "Audit log") through the local gateway: each writer, and the list. */

const LOOPBACK = /^(127\.0\.0\.1|::1)$/;
const TIMEOUT = 60_000;

interface Entry {
  id: string;
  action: string;
  actor: Record<string, unknown>;
  target: { type: string; id: string; name?: string };
  details: Record<string, unknown>;
  at: string;
}

async function log(account: Account, query = ""): Promise<Entry[]> {
  const res = await api("GET", `/api/v1/audit-log${query}`, { token: account.token });
  if (res.status !== 200) throw new Error(`audit log: ${res.status} ${res.text}`);
  return res.body.data.entries as Entry[];
}

const ofAction = async (account: Account, action: string) => log(account, `?action=${action}&limit=100`);

const memberActor = (account: Account, name: string) => ({
  type: "member",
  userId: account.userId,
  name,
  email: account.email,
  ip: expect.stringMatching(LOOPBACK),
});

describe("audit log writers", () => {
  let owner: Account;
  beforeAll(async () => {
    owner = await signupOwner("audit");
    await setPlan(owner.orgId, "agency");
  }, TIMEOUT);

  test(
    "API keys: created, revoked, deleted; revoking a revoked key and deleting an active one write nothing",
    async () => {
      const key = await createKey(owner, { name: "Audited key", permissions: ["forms.view"] });
      const active = await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=true`, { token: owner.token });
      expect(active.status).toBe(409);
      expect((await api("DELETE", `/api/v1/api-keys/${key.id}`, { token: owner.token })).status).toBe(200);
      // Revoking again answers as before but changes nothing: no second entry.
      expect((await api("DELETE", `/api/v1/api-keys/${key.id}`, { token: owner.token })).status).toBe(200);
      expect((await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=true`, { token: owner.token })).status).toBe(200);
      // A foreign or absent key: 404, nothing written.
      expect((await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=true`, { token: owner.token })).status).toBe(404);

      const entries = (await log(owner, "?limit=100")).filter((e) => e.target.id === key.id);
      expect(entries.map((e) => e.action)).toEqual(["api_key.deleted", "api_key.revoked", "api_key.created"]);
      const created = entries[2] as Entry;
      expect(created).toEqual({
        id: expect.stringMatching(/^aud_/),
        action: "api_key.created",
        actor: memberActor(owner, "Test audit"),
        target: { type: "api_key", id: key.id, name: "Audited key" },
        details: { permissions: "forms.view", expiresAt: null },
        at: expect.any(String),
      });
      // The secret is never in the log.
      expect(JSON.stringify(entries)).not.toContain(key.secretKey);
    },
    TIMEOUT,
  );

  test(
    "members: invited, role changed, removed; refused changes write nothing",
    async () => {
      const admin = await addMember(owner, "admin", "audit-admin");
      const member = await addMember(owner, "member", "audit-member");
      const invites = await ofAction(owner, "member.invited");
      expect(invites.map((e) => e.details.email)).toEqual(expect.arrayContaining([admin.email, member.email]));
      expect(invites.find((e) => e.details.email === member.email)).toMatchObject({
        actor: memberActor(owner, "Test audit"),
        target: { type: "invite", id: member.email },
        details: { email: member.email, role: "member" },
      });

      // The admin changes the member's role: the admin is the actor.
      expect(
        (await api("PUT", `/api/v1/team/members/${member.userId}`, { token: admin.token, body: { role: "admin" } })).status,
      ).toBe(200);
      // Refused: the owner's role, and a member that does not exist.
      expect(
        (await api("PUT", `/api/v1/team/members/${owner.userId}`, { token: admin.token, body: { role: "member" } })).status,
      ).toBe(403);
      expect(
        (await api("PUT", "/api/v1/team/members/usr_doesnotexist0000000000", { token: admin.token, body: { role: "member" } }))
          .status,
      ).toBe(404);
      const changes = await ofAction(owner, "member.role_changed");
      expect(changes).toHaveLength(1);
      expect(changes[0]).toMatchObject({
        actor: memberActor(admin, "Test audit-admin"),
        target: { type: "member", id: member.userId, name: "Test audit-member" },
        details: { from: "member", to: "admin" },
      });

      expect((await api("DELETE", `/api/v1/team/members/${member.userId}`, { token: owner.token })).status).toBe(200);
      expect((await api("DELETE", `/api/v1/team/members/${member.userId}`, { token: owner.token })).status).toBe(404);
      const removals = await ofAction(owner, "member.removed");
      expect(removals).toHaveLength(1);
      expect(removals[0]).toMatchObject({
        target: { type: "member", id: member.userId },
        details: { email: member.email, role: "admin" },
      });
    },
    TIMEOUT,
  );

  test(
    "captcha secret changes only, never the secret; webhook secret rotations by session and by key",
    async () => {
      const siteId = await createSite(owner, "Audited site");
      const secret = `audit-secret-${randomUUID()}`;
      const put = (body: Record<string, unknown>) => api("PUT", `/api/v1/sites/${siteId}`, { token: owner.token, body });
      expect((await put({ captcha: { provider: "challenge", siteKey: "pk", secretKey: secret } })).status).toBe(200);
      // A rename and a captcha change that keeps the secret: no entry.
      expect((await put({ name: "Renamed site" })).status).toBe(200);
      expect((await put({ captcha: { provider: "challenge", siteKey: "pk2" } })).status).toBe(200);
      expect((await put({ captcha: { provider: "challenge", siteKey: "pk2", secretKey: `${secret}-2` } })).status).toBe(200);
      expect((await put({ captcha: null })).status).toBe(200);
      const entries = (await ofAction(owner, "site.captcha_secret_changed")).filter((e) => e.target.id === siteId);
      expect(entries.map((e) => e.details.change)).toEqual(["removed", "replaced", "set"]);
      expect(entries[0]?.target).toEqual({ type: "site", id: siteId, name: "Renamed site" });
      expect(JSON.stringify(entries)).not.toContain(secret);

      const hook = await createHook(owner, siteId);
      const key = await apiKeyWith(owner, ["sites.edit", "sites.view"]);
      const keyId = (await api("GET", "/api/v1/api-keys", { token: owner.token })).body.data.keys[0].id as string;
      const rotate = (token: string) => api("POST", `/api/v1/sites/${siteId}/webhooks/${hook.id}/rotate-secret`, { token });
      expect((await rotate(owner.token)).status).toBe(200);
      expect((await rotate(key)).status).toBe(200);
      const other = await signupOwner("audit-foreign");
      expect((await rotate(other.token)).status).toBe(404);
      const rotations = (await ofAction(owner, "webhook.secret_rotated")).filter((e) => e.target.id === hook.id);
      expect(rotations.map((e) => e.actor)).toEqual([
        { type: "api_key", keyId, ip: expect.stringMatching(LOOPBACK) },
        memberActor(owner, "Test audit"),
      ]);
      expect(await log(other)).toEqual([]);
    },
    TIMEOUT,
  );

  test(
    "submissions: single, bulk and erasure deletes, exports; a foreign id deletes nothing and writes nothing",
    async () => {
      const siteId = await createSite(owner, "Inbox site");
      const hook = await createHook(owner, siteId);
      const erased = `gone-${randomUUID()}@example.com`;
      const a = await submitTo(hook, { email: "a@example.com", message: "one" });
      const b = await submitTo(hook, { email: "b@example.com", message: "two" });
      const c = await submitTo(hook, { email: "c@example.com", message: "three" });
      const d = await submitTo(hook, { email: erased, message: "four" });
      const formId = await formOfHook(owner, siteId, hook);

      const exported = await api("GET", `/api/v1/forms/${formId}/submissions/export?format=csv`, { token: owner.token });
      expect(exported.status).toBe(200);
      const exports = (await ofAction(owner, "submissions.exported")).filter((e) => e.target.id === formId);
      expect(exports).toHaveLength(1);
      expect(exports[0]?.details).toMatchObject({ rows: 4, format: "csv" });

      expect((await api("DELETE", `/api/v1/submissions/${a.submissionId}`, { token: owner.token })).status).toBe(200);
      expect((await api("DELETE", `/api/v1/submissions/${a.submissionId}`, { token: owner.token })).status).toBe(404);
      const other = await signupOwner("audit-other");
      expect((await api("DELETE", `/api/v1/submissions/${b.submissionId}`, { token: other.token })).status).toBe(404);
      const singles = await ofAction(owner, "submission.deleted");
      expect(singles.map((e) => e.target)).toEqual([{ type: "submission", id: a.submissionId }]);

      // Bulk: a foreign caller deletes nothing and writes nothing; the owner's deletes are one entry.
      const foreignBulk = await api("POST", "/api/v1/submissions/bulk-delete", {
        token: other.token,
        body: { ids: [b.submissionId] },
      });
      expect(foreignBulk.body.data).toEqual({ deleted: 0, notFound: [b.submissionId] });
      expect(await log(other)).toEqual([]);
      const bulk = await api("POST", "/api/v1/submissions/bulk-delete", {
        token: owner.token,
        body: { ids: [b.submissionId, c.submissionId, "sub_unknown"] },
      });
      expect(bulk.body.data.deleted).toBe(2);
      const bulks = await ofAction(owner, "submissions.deleted");
      expect(bulks).toHaveLength(1);
      expect(bulks[0]).toMatchObject({ target: { type: "form", id: formId }, details: { count: 2 } });
      expect(String(bulks[0]?.details.ids).split(" ").sort()).toEqual([b.submissionId, c.submissionId].sort());

      const erase = await api("POST", `/api/v1/sites/${siteId}/submissions/erase`, {
        token: owner.token,
        body: { email: erased },
      });
      expect(erase.body.data).toMatchObject({ deleted: 1, complete: true });
      const nobody = `nobody-${randomUUID()}@example.com`;
      expect(
        (await api("POST", `/api/v1/sites/${siteId}/submissions/erase`, { token: owner.token, body: { email: nobody } })).status,
      ).toBe(200);
      const erasures = await ofAction(owner, "submissions.erased");
      expect(erasures.map((e) => e.details)).toEqual([
        { email: nobody, count: 0 },
        { email: erased, count: 1 },
      ]);
      expect(erasures[0]?.target).toEqual({ type: "site", id: siteId, name: "Inbox site" });
      expect((await api("GET", `/api/v1/submissions/${d.submissionId}`, { token: owner.token })).status).toBe(404);
    },
    TIMEOUT,
  );

  test(
    "form and site deletions: archive is not a deletion, a refused delete writes nothing",
    async () => {
      const siteId = await createSite(owner, "Doomed site");
      const created = await api("POST", `/api/v1/sites/${siteId}/forms`, { token: owner.token, body: { name: "Doomed form" } });
      expect(created.status).toBe(201);
      const formId = created.body.data.form.id as string;
      // Refused: the site still has a form; the form is not archived yet.
      expect((await api("DELETE", `/api/v1/sites/${siteId}`, { token: owner.token })).status).toBe(409);
      expect((await api("DELETE", `/api/v1/forms/${formId}?permanent=true`, { token: owner.token })).status).toBe(409);
      expect((await api("DELETE", `/api/v1/forms/${formId}`, { token: owner.token })).status).toBe(200);
      expect((await ofAction(owner, "form.deleted")).filter((e) => e.target.id === formId)).toEqual([]);
      expect((await api("DELETE", `/api/v1/forms/${formId}?permanent=true`, { token: owner.token })).status).toBe(200);
      expect((await api("DELETE", `/api/v1/sites/${siteId}`, { token: owner.token })).status).toBe(200);
      const forms = (await ofAction(owner, "form.deleted")).filter((e) => e.target.id === formId);
      expect(forms).toHaveLength(1);
      expect(forms[0]).toMatchObject({ target: { type: "form", id: formId, name: "Doomed form" }, details: { siteId } });
      const sites = (await ofAction(owner, "site.deleted")).filter((e) => e.target.id === siteId);
      expect(sites.map((e) => e.target)).toEqual([{ type: "site", id: siteId, name: "Doomed site" }]);
    },
    TIMEOUT,
  );

  test(
    "a webhook's permanent deletion, with the auto-created form it takes along; refused deletions write nothing",
    async () => {
      const siteId = await createSite(owner, "Webhook site");
      const hook = await createHook(owner, siteId);
      await submitTo(hook, { email: "w@example.com", message: "hello" });
      const formId = await formOfHook(owner, siteId, hook);
      const path = `/api/v1/sites/${siteId}/webhooks/${hook.id}`;
      // Refused: not archived yet; another organization's id.
      const early = await api("DELETE", `${path}?permanent=true`, { token: owner.token });
      expect([early.status, early.body.error?.code]).toEqual([409, "WEBHOOK_NOT_ARCHIVED"]);
      expect((await api("DELETE", path, { token: owner.token })).status).toBe(200);
      const other = await signupOwner("audit-webhook-foreign");
      expect((await api("DELETE", `${path}?permanent=true`, { token: other.token })).status).toBe(404);
      expect((await ofAction(owner, "webhook.deleted")).filter((e) => e.target.id === hook.id)).toEqual([]);
      expect(await log(other)).toEqual([]);

      expect((await api("DELETE", `${path}?permanent=true`, { token: owner.token })).status).toBe(200);
      expect((await api("DELETE", `${path}?permanent=true`, { token: owner.token })).status).toBe(404);
      const deletions = (await ofAction(owner, "webhook.deleted")).filter((e) => e.target.id === hook.id);
      expect(deletions).toEqual([
        {
          id: expect.stringMatching(/^aud_/),
          action: "webhook.deleted",
          actor: memberActor(owner, "Test audit"),
          target: { type: "webhook", id: hook.id, name: expect.any(String) },
          details: { siteId, formId },
          at: expect.any(String),
        },
      ]);
    },
    TIMEOUT,
  );

  test(
    "a site's default retention: each change recorded with both values, in one write with a captcha change; an unchanged value writes nothing",
    async () => {
      const siteId = await createSite(owner, "Retention site");
      const put = (body: Record<string, unknown>) => api("PUT", `/api/v1/sites/${siteId}`, { token: owner.token, body });
      expect((await put({ defaultRetention: { inboxDays: 90 } })).status).toBe(200);
      // The same value again, and a rename: nothing to record.
      expect((await put({ defaultRetention: { inboxDays: 90, spamDays: 30 } })).status).toBe(200);
      expect((await put({ name: "Retention site 2" })).status).toBe(200);
      const both = await put({
        defaultRetention: { spamDays: 7 },
        captcha: { provider: "challenge", siteKey: "pk", secretKey: `s-${randomUUID()}` },
      });
      expect(both.status).toBe(200);
      // Refused: another organization's site is 404 and writes nothing.
      const other = await signupOwner("audit-retention-foreign");
      const foreign = await api("PUT", `/api/v1/sites/${siteId}`, {
        token: other.token,
        body: { defaultRetention: { inboxDays: 1 } },
      });
      expect(foreign.status).toBe(404);
      expect(await log(other)).toEqual([]);

      const changes = (await ofAction(owner, "site.default_retention_changed")).filter((e) => e.target.id === siteId);
      expect(changes.map((e) => e.details)).toEqual([
        { inboxDaysBefore: 90, spamDaysBefore: 30, inboxDays: 90, spamDays: 7 },
        { inboxDaysBefore: null, spamDaysBefore: 30, inboxDays: 90, spamDays: 30 },
      ]);
      expect(changes[0]).toMatchObject({
        actor: memberActor(owner, "Test audit"),
        target: { type: "site", id: siteId, name: "Retention site 2" },
      });
      const captcha = (await ofAction(owner, "site.captcha_secret_changed")).filter((e) => e.target.id === siteId);
      expect(captcha.map((e) => [e.details.change, e.at])).toEqual([["set", changes[0]?.at]]);
    },
    TIMEOUT,
  );

  test(
    "refused actions write nothing: a foreign form's export, a foreign site's captcha secret, an invite by a member, a plan change by a non-admin",
    async () => {
      const siteId = await createSite(owner, "Refusals site");
      const hook = await createHook(owner, siteId);
      await submitTo(hook, { email: "r@example.com", message: "kept" });
      const formId = await formOfHook(owner, siteId, hook);
      const other = await signupOwner("audit-refusals");
      await setPlan(other.orgId, "agency");
      const before = await log(other, "?limit=100");

      const exported = await api("GET", `/api/v1/forms/${formId}/submissions/export?format=csv`, { token: other.token });
      expect(exported.status).toBe(404);
      const secret = `foreign-${randomUUID()}`;
      const captcha = await api("PUT", `/api/v1/sites/${siteId}`, {
        token: other.token,
        body: { captcha: { provider: "challenge", siteKey: "pk", secretKey: secret } },
      });
      expect(captcha.status).toBe(404);
      const member = await addMember(other, "member", "audit-refused-member");
      const invited = `refused-${randomUUID()}@example.com`;
      const invite = await api("POST", "/api/v1/team/invites", { token: member.token, body: { email: invited, role: "member" } });
      expect(invite.status).toBe(403);
      const plan = await api("PUT", `/api/v1/admin/organizations/${other.orgId}`, { token: other.token, body: { plan: "pro" } });
      expect(plan.status).toBe(403);

      // Nothing in either organization's log: the invite of the member added above is the only new entry.
      const after = await log(other, "?limit=100");
      expect(after.slice(0, after.length - before.length).map((e) => [e.action, e.details.email])).toEqual([
        ["member.invited", member.email],
      ]);
      expect((await ofAction(owner, "submissions.exported")).filter((e) => e.target.id === formId)).toEqual([]);
      expect((await ofAction(owner, "site.captcha_secret_changed")).filter((e) => e.target.id === siteId)).toEqual([]);
      expect(JSON.stringify(await log(owner, "?limit=100"))).not.toContain(secret);
      expect(await ofAction(other, "organization.plan_changed")).toHaveLength(1);
      expect((await api("GET", "/api/v1/auth/me", { token: other.token })).body.data.organization.plan).toBe("agency");
    },
    TIMEOUT,
  );

  test(
    "a platform admin's plan change is in the affected organization's log",
    async () => {
      const org = await signupOwner("audit-plan");
      await setPlan(org.orgId, "pro");
      const entries = await ofAction(org, "organization.plan_changed");
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        actor: { type: "platform_admin", name: "Platform Admin", ip: expect.stringMatching(LOOPBACK) },
        target: { type: "organization", id: org.orgId, name: "Org audit-plan" },
        details: { from: "free", to: "pro" },
      });
      // Setting the same plan again changes nothing: no entry.
      await setPlan(org.orgId, "pro");
      expect(await ofAction(org, "organization.plan_changed")).toHaveLength(1);
      const adminToken = await platformAdminToken();
      const me = await api("GET", "/api/v1/auth/me", { token: adminToken });
      expect(entries[0]?.actor.orgId).toBe(me.body.data.organization.id);
    },
    TIMEOUT,
  );
});

describe("GET /api/v1/audit-log", () => {
  let owner: Account;
  let keyIds: string[];
  beforeAll(async () => {
    owner = await signupOwner("audit-list");
    await setPlan(owner.orgId, "agency");
    keyIds = [];
    for (let i = 0; i < 5; i++) keyIds.push((await createKey(owner, { name: `k${i}` })).id);
  }, TIMEOUT);

  test("pages newest first with the cursor, filtered by action, actor and time", async () => {
    const first = await api("GET", "/api/v1/audit-log?action=api_key.created&limit=2", { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.body.data.entries.map((e: Entry) => e.target.name)).toEqual(["k4", "k3"]);
    const second = await api("GET", `/api/v1/audit-log?action=api_key.created&limit=2&cursor=${first.body.data.nextCursor}`, {
      token: owner.token,
    });
    expect(second.body.data.entries.map((e: Entry) => e.target.name)).toEqual(["k2", "k1"]);
    const third = await api("GET", `/api/v1/audit-log?action=api_key.created&limit=2&cursor=${second.body.data.nextCursor}`, {
      token: owner.token,
    });
    expect(third.body.data.entries.map((e: Entry) => e.target.name)).toEqual(["k0"]);
    expect(third.body.data.nextCursor).toBeNull();

    const all = await log(owner, "?limit=100");
    // The plan change by the admin, then the five keys.
    expect(all.map((e) => e.action)).toEqual([...Array(5).fill("api_key.created"), "organization.plan_changed"]);
    expect(await log(owner, `?actor=${owner.userId}`)).toHaveLength(5);
    expect(await log(owner, "?actor=usr_nobody")).toEqual([]);

    const middle = all[2] as Entry;
    const between = await log(owner, `?from=${encodeURIComponent(middle.at)}&to=${encodeURIComponent(middle.at)}`);
    expect(between.map((e) => e.id)).toEqual([middle.id]);
    expect(await log(owner, "?to=2000-01-01")).toEqual([]);
    expect((await log(owner, `?from=${new Date().toISOString().slice(0, 10)}`)).length).toBe(6);
  });

  test("validation: a bad action, dates, range, limit or cursor is 400", async () => {
    for (const [query, code] of [
      ["?action=api_key.stolen", "VALIDATION_ERROR"],
      ["?from=yesterday", "VALIDATION_ERROR"],
      ["?to=2026-13-01", "VALIDATION_ERROR"],
      ["?from=2026-02-01&to=2026-01-01", "VALIDATION_ERROR"],
      ["?limit=0", "VALIDATION_ERROR"],
      ["?cursor=notacursor", "INVALID_CURSOR"],
    ] as const) {
      const res = await api("GET", `/api/v1/audit-log${query}`, { token: owner.token });
      expect([query, res.status, res.body.error?.code]).toEqual([query, 400, code]);
    }
    // Another organization's cursor is not a cursor of this list.
    const other = await signupOwner("audit-cursor");
    await setPlan(other.orgId, "agency");
    await createKey(other, { name: "a" });
    await createKey(other, { name: "b" });
    const page = await api("GET", "/api/v1/audit-log?limit=1", { token: other.token });
    const foreign = await api("GET", `/api/v1/audit-log?cursor=${page.body.data.nextCursor}`, { token: owner.token });
    expect([foreign.status, foreign.body.error?.code]).toEqual([400, "INVALID_CURSOR"]);
  });

  test("permissions: owner and admin sessions only; a member and any API key are 403", async () => {
    const admin = await addMember(owner, "admin", "audit-reader");
    const member = await addMember(owner, "member", "audit-nonreader");
    expect((await api("GET", "/api/v1/audit-log", { token: admin.token })).status).toBe(200);
    const denied = await api("GET", "/api/v1/audit-log", { token: member.token });
    expect([denied.status, denied.body.error?.code]).toEqual([403, "ROLE_REQUIRED"]);
    const key = await createKey(owner, { name: "reader" });
    const byKey = await api("GET", "/api/v1/audit-log", { token: key.secretKey });
    expect([byKey.status, byKey.body.error?.code]).toEqual([403, "SESSION_REQUIRED"]);
    // No key may hold the permission.
    const refused = await api("POST", "/api/v1/api-keys", {
      token: owner.token,
      body: { name: "x", permissions: ["audit_log.read"] },
    });
    expect([refused.status, refused.body.error?.code]).toEqual([400, "RESTRICTED_PERMISSION"]);
    expect(JSON.stringify(await log(owner, "?limit=100"))).not.toContain("audit-cursor");
  });
});
