import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { resolveApiKey } from "../../lib/auth/api-key-auth";
import { db, tableName } from "../../lib/aws/dynamodb";
import { keys } from "../../lib/store/keys";
import { newToken } from "../../lib/auth/tokens";
import { type Account, addMember, api, createSite, platformAdminToken, setPlan, signupOwner } from "../support/api";

/** Every permission an API key gets when created without `permissions` (spec 5.2, minus the restricted ones). */
const DEFAULT_PERMISSIONS = [
  "forms.view",
  "forms.create",
  "forms.edit",
  "forms.delete",
  "forms.publish",
  "submissions.view",
  "submissions.export",
  "submissions.delete",
  "sites.view",
  "sites.create",
  "sites.edit",
  "sites.delete",
  "team.view",
];
const RESTRICTED = ["settings.email", "settings.billing", "settings.org", "team.invite", "team.manage"];
const LIST_ITEM_FIELDS = [
  "createdAt",
  "createdBy",
  "expiresAt",
  "id",
  "isRevoked",
  "keyPrefix",
  "lastUsedAt",
  "name",
  "permissions",
  "rateLimitPerMin",
];
const CREATE_FIELDS = ["createdAt", "expiresAt", "id", "keyPrefix", "name", "permissions", "rateLimitPerMin", "secretKey"];
const SECRET = /^inlet_sk_[0-9A-Za-z]{38}$/;

async function agencyOwner(label: string, plan: "agency" | "enterprise" = "agency"): Promise<Account> {
  const owner = await signupOwner(label);
  await setPlan(owner.orgId, plan);
  return owner;
}

async function createKey(account: Account, body: Record<string, unknown> = { name: "CI" }) {
  const res = await api("POST", "/api/v1/api-keys", { token: account.token, body });
  if (res.status !== 200) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return res.body.data.key as { id: string; secretKey: string; keyPrefix: string; [field: string]: unknown };
}

/** Waits, if needed, so that the next few seconds of requests fall in one rate-limit window. */
async function sameWindow(seconds = 5) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

const code = (res: { body: { error?: { code?: string } } }) => res.body.error?.code;

describe("API key lifecycle", () => {
  test("create, list, read, update, revoke and delete permanently", async () => {
    const owner = await agencyOwner("lifecycle");
    const created = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "Zapier" } });
    expect(created.status).toBe(200);
    const key = created.body.data.key;
    expect(Object.keys(key).sort()).toEqual(CREATE_FIELDS);
    expect(key).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Za-z]{22}$/),
      name: "Zapier",
      secretKey: expect.stringMatching(SECRET),
      keyPrefix: key.secretKey.slice(0, 15),
      permissions: DEFAULT_PERMISSIONS,
      rateLimitPerMin: 300,
      expiresAt: null,
      createdAt: expect.any(String),
    });
    expect(key.keyPrefix).toMatch(/^inlet_sk_[0-9A-Za-z]{6}$/);

    const listed = await api("GET", "/api/v1/api-keys", { token: owner.token });
    expect(listed.status).toBe(200);
    const item = listed.body.data.keys[0];
    expect(listed.body.data.keys).toHaveLength(1);
    expect(Object.keys(item).sort()).toEqual(LIST_ITEM_FIELDS);
    expect(item).toEqual({
      id: key.id,
      name: "Zapier",
      keyPrefix: key.keyPrefix,
      permissions: DEFAULT_PERMISSIONS,
      rateLimitPerMin: 300,
      lastUsedAt: null,
      expiresAt: null,
      isRevoked: false,
      createdBy: { name: "Test lifecycle", email: owner.email },
      createdAt: key.createdAt,
    });

    const read = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.data.key).toEqual(item);

    const updated = await api("PUT", `/api/v1/api-keys/${key.id}`, {
      token: owner.token,
      body: { name: "Zapier (read only)", permissions: ["sites.view", "forms.view"], rateLimitPerMin: 120 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.key).toEqual({
      ...item,
      name: "Zapier (read only)",
      permissions: ["sites.view", "forms.view"],
      rateLimitPerMin: 120,
    });

    // No response but the creation carries the secret.
    for (const res of [listed, read, updated]) {
      expect(res.text).not.toContain(key.secretKey);
      expect(res.text).not.toContain("secretKey");
      expect(res.text).not.toContain("keyHash");
    }

    const permanentWhileActive = await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=true`, { token: owner.token });
    expect(permanentWhileActive.status).toBe(409);
    expect(code(permanentWhileActive)).toBe("API_KEY_NOT_REVOKED");

    const revoked = await api("DELETE", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ message: expect.stringMatching(/revoked/i) });
    const afterRevoke = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(afterRevoke.body.data.key.isRevoked).toBe(true);

    // Revoking again is idempotent.
    const again = await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=false`, { token: owner.token });
    expect(again.status).toBe(200);

    const deleted = await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=true`, { token: owner.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ message: expect.stringMatching(/deleted/i) });
    expect((await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=true`, { token: owner.token })).status).toBe(404);
    expect((await api("GET", "/api/v1/api-keys", { token: owner.token })).body.data.keys).toEqual([]);
    // A deleted key is unknown.
    const use = await api("GET", "/api/v1/sites", { token: key.secretKey });
    expect(use.status).toBe(401);
    expect(code(use)).toBe("UNAUTHORIZED");
  });

  test("the list holds every key, revoked ones included, newest first", async () => {
    const owner = await agencyOwner("newest");
    const first = await createKey(owner, { name: "first" });
    const second = await createKey(owner, { name: "second" });
    const third = await createKey(owner, { name: "third" });
    await api("DELETE", `/api/v1/api-keys/${second.id}`, { token: owner.token });
    const list = await api("GET", "/api/v1/api-keys", { token: owner.token });
    expect(list.body.data.keys.map((k: { name: string }) => k.name)).toEqual(["third", "second", "first"]);
    expect(list.body.data.keys.map((k: { isRevoked: boolean }) => k.isRevoked)).toEqual([false, true, false]);
    expect(list.body.data.keys[0].id).toBe(third.id);
    expect(list.body.data.keys[2].id).toBe(first.id);
  });

  test("expiresInDays sets expiresAt that many days ahead; permissions may be chosen", async () => {
    const owner = await agencyOwner("expiry", "enterprise");
    const before = Date.now();
    const key = await createKey(owner, { name: "short-lived", expiresInDays: 30, permissions: ["forms.view"] });
    const expiresAt = Date.parse(key.expiresAt as string);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
    expect(key.permissions).toEqual(["forms.view"]);
    expect(key.rateLimitPerMin).toBe(600);
    expect(key.expiresAt).toBe(new Date(expiresAt).toISOString());
    const tenYears = await createKey(owner, { name: "long", expiresInDays: 3650 });
    expect(tenYears.expiresAt).toEqual(expect.any(String));
  });

  test("an admin may manage keys too, and sees the organization's keys", async () => {
    const owner = await agencyOwner("admin-manages");
    const admin = await addMember(owner, "admin");
    const ownerKey = await createKey(owner);
    const adminKey = await createKey(admin, { name: "admin's" });
    const list = await api("GET", "/api/v1/api-keys", { token: admin.token });
    expect(list.body.data.keys.map((k: { id: string }) => k.id)).toEqual([adminKey.id, ownerKey.id]);
    expect(list.body.data.keys[0].createdBy).toEqual({ name: "Test admin", email: admin.email });
    expect((await api("DELETE", `/api/v1/api-keys/${ownerKey.id}`, { token: admin.token })).status).toBe(200);
  });
});

describe("who may manage API keys", () => {
  const routes = (id: string) =>
    [
      ["GET", "/api/v1/api-keys", undefined],
      ["POST", "/api/v1/api-keys", { name: "x" }],
      ["GET", `/api/v1/api-keys/${id}`, undefined],
      ["PUT", `/api/v1/api-keys/${id}`, { name: "x" }],
      ["DELETE", `/api/v1/api-keys/${id}`, undefined],
      ["DELETE", `/api/v1/api-keys/${id}?permanent=true`, undefined],
    ] as const;

  test("an API key gets 403 SESSION_REQUIRED on every key route, whatever it holds", async () => {
    const owner = await agencyOwner("session-required");
    const key = await createKey(owner);
    for (const [method, path, body] of routes(key.id)) {
      const res = await api(method, path, { token: key.secretKey, ...(body ? { body } : {}) });
      expect([method, path, res.status, code(res)]).toEqual([method, path, 403, "SESSION_REQUIRED"]);
    }
  });

  test("a member gets 403 ROLE_REQUIRED", async () => {
    const owner = await agencyOwner("role-required");
    const member = await addMember(owner, "member");
    const key = await createKey(owner);
    for (const [method, path, body] of routes(key.id)) {
      const res = await api(method, path, { token: member.token, ...(body ? { body } : {}) });
      expect([method, path, res.status, code(res)]).toEqual([method, path, 403, "ROLE_REQUIRED"]);
    }
  });

  test("an organization on the free or pro plan gets 403 PLAN_REQUIRED", async () => {
    const owner = await signupOwner("plan-required");
    for (const plan of ["free", "pro"] as const) {
      await setPlan(owner.orgId, plan);
      for (const [method, path, body] of routes("key_0000000000000000000000")) {
        const res = await api(method, path, { token: owner.token, ...(body ? { body } : {}) });
        expect([plan, method, path, res.status, code(res)]).toEqual([plan, method, path, 403, "PLAN_REQUIRED"]);
      }
    }
  });

  test("no credentials, a malformed or an unknown bearer token: 401 UNAUTHORIZED", async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: "Bearer inlet_sk_nope" },
      { authorization: `Bearer ${newToken("apiKey")}` },
      { authorization: `Basic ${newToken("apiKey")}` },
    ];
    for (const headers of variants) {
      const res = await api("GET", "/api/v1/api-keys", { headers });
      expect(res.status).toBe(401);
      expect(code(res)).toBe("UNAUTHORIZED");
      const management = await api("GET", "/api/v1/sites", { headers });
      expect(management.status).toBe(401);
      expect(code(management)).toBe("UNAUTHORIZED");
    }
  });

  test("another organization's key answers 404, as an unknown one", async () => {
    const owner = await agencyOwner("owner-a");
    const other = await agencyOwner("owner-b");
    const key = await createKey(owner);
    for (const [method, path, body] of routes(key.id).slice(2)) {
      const res = await api(method, path, { token: other.token, ...(body ? { body } : {}) });
      expect([method, path, res.status, code(res)]).toEqual([method, path, 404, "NOT_FOUND"]);
    }
    await api("DELETE", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    const permanent = await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=true`, { token: other.token });
    expect(permanent.status).toBe(404);
    // Still there for its owner.
    expect((await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token })).status).toBe(200);
    const unknown = await api("GET", "/api/v1/api-keys/key_0000000000000000000000", { token: owner.token });
    expect(unknown.status).toBe(404);
  });
});

describe("the 25-key limit", () => {
  test("30 concurrent creates: exactly 25 succeed; revoked keys count until deleted permanently", async () => {
    const owner = await agencyOwner("limit");
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: `k${i}` } })),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(25);
    expect(refused.map((r) => [r.status, code(r)])).toEqual(Array(5).fill([403, "API_KEY_LIMIT_REACHED"]));
    const list = await api("GET", "/api/v1/api-keys", { token: owner.token });
    expect(list.body.data.keys).toHaveLength(25);

    const twentySixth = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "26th" } });
    expect(twentySixth.status).toBe(403);
    expect(code(twentySixth)).toBe("API_KEY_LIMIT_REACHED");

    const victim = ok[0]?.body.data.key.id as string;
    await api("DELETE", `/api/v1/api-keys/${victim}`, { token: owner.token });
    const stillFull = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "revoked counts" } });
    expect(code(stillFull)).toBe("API_KEY_LIMIT_REACHED");

    expect((await api("DELETE", `/api/v1/api-keys/${victim}?permanent=true`, { token: owner.token })).status).toBe(200);
    const freed = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "in the freed slot" } });
    expect(freed.status).toBe(200);
    const full = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "27th" } });
    expect(code(full)).toBe("API_KEY_LIMIT_REACHED");
  });
});

describe("permissions of a key", () => {
  test("restricted permissions are 400 RESTRICTED_PERMISSION on create and update", async () => {
    const owner = await agencyOwner("restricted");
    const key = await createKey(owner, { name: "ok", permissions: ["sites.view"] });
    for (const permission of RESTRICTED) {
      const create = await api("POST", "/api/v1/api-keys", {
        token: owner.token,
        body: { name: "bad", permissions: ["sites.view", permission] },
      });
      expect([permission, create.status, code(create)]).toEqual([permission, 400, "RESTRICTED_PERMISSION"]);
      expect(create.body.error.message).toContain(permission);
      const update = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: owner.token, body: { permissions: [permission] } });
      expect([permission, update.status, code(update)]).toEqual([permission, 400, "RESTRICTED_PERMISSION"]);
    }
    expect((await api("GET", "/api/v1/api-keys", { token: owner.token })).body.data.keys).toHaveLength(1);
    expect((await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token })).body.data.key.permissions).toEqual([
      "sites.view",
    ]);
  });

  test("an unknown permission is 400 VALIDATION_ERROR", async () => {
    const owner = await agencyOwner("unknown-permission");
    const key = await createKey(owner);
    const create = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "x", permissions: ["sites.fly"] } });
    expect(create.status).toBe(400);
    expect(code(create)).toBe("VALIDATION_ERROR");
    expect(create.body.error.details).toEqual([expect.objectContaining({ path: "permissions.0" })]);
    const update = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: owner.token, body: { permissions: ["admin"] } });
    expect(code(update)).toBe("VALIDATION_ERROR");
  });

  test("a key works on a management route it has the permission for, and is 403 naming the one it lacks", async () => {
    const owner = await agencyOwner("uses-key");
    const siteId = await createSite(owner);
    const viewer = await createKey(owner, { name: "viewer", permissions: ["sites.view"] });
    const list = await api("GET", "/api/v1/sites", { token: viewer.secretKey });
    expect(list.status).toBe(200);
    expect(list.body.data.sites.map((s: { id: string }) => s.id)).toEqual([siteId]);
    const create = await api("POST", "/api/v1/sites", { token: viewer.secretKey, body: { name: "nope" } });
    expect(create.status).toBe(403);
    expect(code(create)).toBe("INSUFFICIENT_PERMISSION");
    expect(create.body.error.message).toContain("sites.create");

    const formsOnly = await createKey(owner, { name: "forms", permissions: ["forms.view"] });
    const denied = await api("GET", "/api/v1/sites", { token: formsOnly.secretKey });
    expect(denied.status).toBe(403);
    expect(code(denied)).toBe("INSUFFICIENT_PERMISSION");
    expect(denied.body.error.message).toContain("sites.view");

    // A permission change applies to the key's next request.
    await api("PUT", `/api/v1/api-keys/${formsOnly.id}`, { token: owner.token, body: { permissions: ["sites.view"] } });
    expect((await api("GET", "/api/v1/sites", { token: formsOnly.secretKey })).status).toBe(200);

    // The default key may create sites.
    const full = await createKey(owner);
    expect((await api("POST", "/api/v1/sites", { token: full.secretKey, body: { name: "via key" } })).status).toBe(201);
  });

  test("dashboard-only actions are 403 SESSION_REQUIRED with any API key", async () => {
    const owner = await agencyOwner("dashboard-only");
    const member = await addMember(owner, "member");
    const key = await createKey(owner);
    const attempts = [
      api("POST", "/api/v1/team/invites", { token: key.secretKey, body: { email: "x@example.com", role: "member" } }),
      api("PUT", `/api/v1/team/members/${member.userId}`, { token: key.secretKey, body: { role: "admin" } }),
      api("DELETE", `/api/v1/team/members/${member.userId}`, { token: key.secretKey }),
      api("PUT", `/api/v1/admin/organizations/${owner.orgId}`, { token: key.secretKey, body: { plan: "enterprise" } }),
      api("GET", "/api/v1/admin/organizations", { token: key.secretKey }),
      api("GET", "/api/v1/auth/me", { token: key.secretKey }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect([res.status, code(res)]).toEqual([403, "SESSION_REQUIRED"]);
      expect(res.headers.get("x-ratelimit-limit")).toBe("300");
    }
    // team.view is not restricted: the key lists the team.
    expect((await api("GET", "/api/v1/team", { token: key.secretKey })).status).toBe(200);
  });
});

describe("authenticating with an API key", () => {
  test("a revoked key is 401 API_KEY_REVOKED at once", async () => {
    const owner = await agencyOwner("revoked");
    const key = await createKey(owner);
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
    await api("DELETE", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    const res = await api("GET", "/api/v1/sites", { token: key.secretKey });
    expect(res.status).toBe(401);
    expect(code(res)).toBe("API_KEY_REVOKED");
  });

  test("an expired key is 401 API_KEY_EXPIRED", async () => {
    const owner = await agencyOwner("expired");
    const key = await createKey(owner, { name: "soon", expiresInDays: 1 });
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
    // Time passes: the expiry is moved into the past in the table itself.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(key.id),
        UpdateExpression: "SET expiresAt = :past",
        ExpressionAttributeValues: { ":past": new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const res = await api("GET", "/api/v1/sites", { token: key.secretKey });
    expect(res.status).toBe(401);
    expect(code(res)).toBe("API_KEY_EXPIRED");
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  test("a mistyped key (bad checksum) is 401 UNAUTHORIZED", async () => {
    const owner = await agencyOwner("typo");
    const key = await createKey(owner);
    const last = key.secretKey.slice(-1);
    const typo = key.secretKey.slice(0, -1) + (last === "a" ? "b" : "a");
    const res = await api("GET", "/api/v1/sites", { token: typo });
    expect([res.status, code(res)]).toEqual([401, "UNAUTHORIZED"]);
  });

  test("every API-key response carries the X-RateLimit headers", async () => {
    const owner = await agencyOwner("headers");
    const key = await createKey(owner, { name: "h", permissions: ["forms.view"] });
    await sameWindow();
    const ok = await api("GET", "/api/v1/team", { token: (await createKey(owner)).secretKey });
    expect(ok.headers.get("x-ratelimit-limit")).toBe("300");
    const first = await api("GET", "/api/v1/api-keys", { token: key.secretKey });
    const second = await api("GET", "/api/v1/sites", { token: key.secretKey });
    const resetAt = Math.floor(Date.now() / 60_000) * 60 + 60;
    expect([first.status, second.status]).toEqual([403, 403]);
    expect(first.headers.get("x-ratelimit-limit")).toBe("300");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("299");
    expect(second.headers.get("x-ratelimit-remaining")).toBe("298");
    expect(second.headers.get("x-ratelimit-reset")).toBe(String(resetAt));
    expect(ok.headers.get("x-ratelimit-remaining")).toBe("299");
    // A session's responses do not carry them.
    expect((await api("GET", "/api/v1/sites", { token: owner.token })).headers.get("x-ratelimit-limit")).toBeNull();
  });

  test("a lower per-key limit applies, never above the plan's", async () => {
    const owner = await agencyOwner("custom-limit");
    const key = await createKey(owner);
    const above = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: owner.token, body: { rateLimitPerMin: 301 } });
    expect([above.status, code(above)]).toEqual([400, "VALIDATION_ERROR"]);
    expect(above.body.error.details).toEqual([expect.objectContaining({ path: "rateLimitPerMin" })]);
    for (const bad of [0, -1, 2.5, "10"]) {
      const res = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: owner.token, body: { rateLimitPerMin: bad } });
      expect([bad, res.status, code(res)]).toEqual([bad, 400, "VALIDATION_ERROR"]);
    }
    const lowered = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: owner.token, body: { rateLimitPerMin: 2 } });
    expect(lowered.body.data.key.rateLimitPerMin).toBe(2);
    await sameWindow();
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await api("GET", "/api/v1/team", { token: key.secretKey }));
    expect(results.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(results[0]?.headers.get("x-ratelimit-limit")).toBe("2");
    expect(code(results[2] as { body: { error?: { code?: string } } })).toBe("RATE_LIMITED");
    expect(Number(results[2]?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // null follows the plan again.
    const reset = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: owner.token, body: { rateLimitPerMin: null } });
    expect(reset.body.data.key.rateLimitPerMin).toBe(300);
  });

  test("lastUsedAt is recorded when the key is used", async () => {
    const owner = await agencyOwner("last-used");
    const key = await createKey(owner);
    const before = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(before.body.data.key.lastUsedAt).toBeNull();
    await sameWindow();
    const start = Date.now();
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
    const after = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    const lastUsedAt = Date.parse(after.body.data.key.lastUsedAt);
    expect(lastUsedAt).toBeGreaterThanOrEqual(start - 1000);
    expect(lastUsedAt).toBeLessThanOrEqual(Date.now());
    // Later requests of the same minute do not write it again.
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
    const again = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(again.body.data.key.lastUsedAt).toBe(after.body.data.key.lastUsedAt);
  });

  test("a plan change reaches existing keys: a downgrade is 403 PLAN_REQUIRED, an upgrade raises the limit", async () => {
    const owner = await agencyOwner("downgrade");
    const key = await createKey(owner);
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).headers.get("x-ratelimit-limit")).toBe("300");

    await setPlan(owner.orgId, "enterprise");
    const upgraded = await api("GET", "/api/v1/sites", { token: key.secretKey });
    expect(upgraded.status).toBe(200);
    expect(upgraded.headers.get("x-ratelimit-limit")).toBe("600");
    expect((await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token })).body.data.key.rateLimitPerMin).toBe(600);

    for (const plan of ["pro", "free"] as const) {
      await setPlan(owner.orgId, plan);
      const res = await api("GET", "/api/v1/sites", { token: key.secretKey });
      expect([plan, res.status, code(res)]).toEqual([plan, 403, "PLAN_REQUIRED"]);
    }
    await setPlan(owner.orgId, "agency");
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
  });

  test("a plan change of another organization leaves these keys alone", async () => {
    const owner = await agencyOwner("untouched");
    const other = await agencyOwner("changed");
    const key = await createKey(owner);
    await createKey(other);
    await setPlan(other.orgId, "free");
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
    const admin = await platformAdminToken();
    const missing = await api("PUT", "/api/v1/admin/organizations/org_0000000000000000000000", {
      token: admin,
      body: { plan: "pro" },
    });
    expect(missing.status).toBe(404);
  });
});

describe("the per-key rate limit", () => {
  /** 300 requests in batches of 50, then the 301st, all with the window's end as it was at the start. */
  async function burst(secretKey: string) {
    const windowEnd = Math.floor(Date.now() / 60_000) * 60 + 60;
    const started = Date.now();
    const responses = [];
    for (let batch = 0; batch < 6; batch++) {
      const calls = Array.from({ length: 50 }, () => api("GET", "/api/v1/sites", { token: secretKey }));
      responses.push(...(await Promise.all(calls)));
    }
    const over = await api("GET", "/api/v1/sites", { token: secretKey });
    return { windowEnd, started, responses, over, inOneWindow: Date.now() < windowEnd * 1000 };
  }

  test("with a 300/min key, requests 1-300 of a window succeed, 301 is 429, and the next window is clean", async () => {
    const owner = await agencyOwner("rate-limit");
    // The burst takes a few seconds over loopback: start it with 20 s of the window left, and in
    // the unlikely case a loaded machine still crosses the window's end, run it again with a
    // fresh key (the check of the boundary must not depend on the clock being kind).
    let run: Awaited<ReturnType<typeof burst>> | undefined;
    let secretKey = "";
    for (let attempt = 0; attempt < 2 && !run?.inOneWindow; attempt++) {
      secretKey = (await createKey(owner, { name: `burst ${attempt}`, permissions: ["sites.view"] })).secretKey;
      await sameWindow(20);
      run = await burst(secretKey);
    }
    if (!run?.inOneWindow) throw new Error("The burst never fitted in one window");
    const { windowEnd, started, responses, over } = run;

    expect(responses.map((r) => r.status)).toEqual(Array(300).fill(200));
    const remaining = responses.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 300 }, (_, i) => i));
    for (const r of responses) {
      expect(r.headers.get("x-ratelimit-limit")).toBe("300");
      expect(r.headers.get("x-ratelimit-reset")).toBe(String(windowEnd));
    }

    expect(over.status).toBe(429);
    expect(code(over)).toBe("RATE_LIMITED");
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(windowEnd - Math.floor(started / 1000));
    expect(over.headers.get("x-ratelimit-limit")).toBe("300");
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(over.headers.get("x-ratelimit-reset")).toBe(String(windowEnd));

    // The next window, reached through lib/ with the clock where Retry-After points (waiting for
    // it in real time would cost up to a minute): the count starts again.
    const next = await resolveApiKey(secretKey, windowEnd * 1000);
    expect(next.responseHeaders).toEqual({
      "x-ratelimit-limit": "300",
      "x-ratelimit-remaining": "299",
      "x-ratelimit-reset": String(windowEnd + 60),
    });
  }, 120_000);
});

describe("bad input gets a 4xx with a code", () => {
  let owner: Account;
  let keyId: string;
  beforeAll(async () => {
    owner = await agencyOwner("bad-input");
    keyId = (await createKey(owner)).id;
  });

  const post = (body: unknown) => api("POST", "/api/v1/api-keys", { token: owner.token, body });

  test("malformed JSON", async () => {
    for (const [method, path] of [
      ["POST", "/api/v1/api-keys"],
      ["PUT", `/api/v1/api-keys/${keyId}`],
    ]) {
      const res = await api(method as string, path as string, {
        token: owner.token,
        rawBody: '{"name": "x",',
        headers: { "content-type": "application/json" },
      });
      expect([res.status, code(res)]).toEqual([400, "INVALID_JSON"]);
    }
  });

  test.each([
    ["a missing name", {}],
    ["an empty name", { name: "" }],
    ["a blank name", { name: "   " }],
    ["a 256-character name", { name: "n".repeat(256) }],
    ["a numeric name", { name: 5 }],
    ["permissions as a string", { name: "x", permissions: "sites.view" }],
    ["a non-string permission", { name: "x", permissions: [1] }],
    ["an empty permission list", { name: "x", permissions: [] }],
    ["duplicate permissions", { name: "x", permissions: ["sites.view", "sites.view"] }],
    ["a non-numeric expiresInDays", { name: "x", expiresInDays: "thirty" }],
    ["a numeric string expiresInDays", { name: "x", expiresInDays: "30" }],
    ["a zero expiresInDays", { name: "x", expiresInDays: 0 }],
    ["a negative expiresInDays", { name: "x", expiresInDays: -1 }],
    ["a fractional expiresInDays", { name: "x", expiresInDays: 1.5 }],
    ["an expiresInDays over ten years", { name: "x", expiresInDays: 3651 }],
    ["an unknown field", { name: "x", rateLimitPerMin: 10 }],
    ["a body that is not an object", ["name"]],
  ])("create with %s: 400 VALIDATION_ERROR", async (_label, body) => {
    const res = await post(body);
    expect([res.status, code(res)]).toEqual([400, "VALIDATION_ERROR"]);
    expect(res.body.error.details.length).toBeGreaterThan(0);
  });

  test("a 255-character name is accepted", async () => {
    const res = await post({ name: "n".repeat(255) });
    expect(res.status).toBe(200);
    expect(res.body.data.key.name).toHaveLength(255);
  });

  test.each([
    ["a 256-character name", { name: "n".repeat(256) }],
    ["a numeric name", { name: 5 }],
    ["duplicate permissions", { permissions: ["forms.view", "forms.view"] }],
    ["an unknown field", { expiresInDays: 5 }],
  ])("update with %s: 400 VALIDATION_ERROR", async (_label, body) => {
    const res = await api("PUT", `/api/v1/api-keys/${keyId}`, { token: owner.token, body });
    expect([res.status, code(res)]).toEqual([400, "VALIDATION_ERROR"]);
  });

  test("permanent must be true or false", async () => {
    for (const value of ["yes", "1", "TRUE", ""]) {
      const res = await api("DELETE", `/api/v1/api-keys/${keyId}?permanent=${value}`, { token: owner.token });
      expect([value, res.status, code(res)]).toEqual([value, 400, "VALIDATION_ERROR"]);
    }
    // Nothing happened to the key.
    expect((await api("GET", `/api/v1/api-keys/${keyId}`, { token: owner.token })).body.data.key.isRevoked).toBe(false);
  });

  test("an id of the wrong form is 404 NOT_FOUND", async () => {
    const site = await createSite(owner);
    for (const id of [site, "key_short", "sk_0000000000000000000000", `${keyId}x`, "inlet_sk_abc"]) {
      for (const [method, body] of [
        ["GET", undefined],
        ["PUT", { name: "x" }],
        ["DELETE", undefined],
      ] as const) {
        const res = await api(method, `/api/v1/api-keys/${encodeURIComponent(id)}`, {
          token: owner.token,
          ...(body ? { body } : {}),
        });
        expect([id, method, res.status, code(res)]).toEqual([id, method, 404, "NOT_FOUND"]);
      }
    }
  });

  test("an unsupported content type is 415", async () => {
    const res = await api("POST", "/api/v1/api-keys", {
      token: owner.token,
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect([res.status, code(res)]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
  });
});
