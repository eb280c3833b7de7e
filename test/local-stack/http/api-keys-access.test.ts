import { ROUTES } from "../../../functions/routes";
import { newToken } from "../../../lib/auth/tokens";
import { addMember, api, createSite, setPlan, signupOwner } from "../../support/api";
import { agencyOwner, code, createKey, RESTRICTED } from "../../support/api-keys";

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

describe("session-only routes (functions/routes.ts, auth: session)", () => {
  const sessionOnly = ROUTES.filter((route) => route.auth === "session");

  test("every one refuses an API key with 403 SESSION_REQUIRED, before any other check", async () => {
    // An agency organization's key with every permission a key can hold: a route that let the key
    // past the session check would answer something else (its role, plan, permission or platform
    // admin refusal, or the route's own answer).
    const owner = await agencyOwner("session-only");
    const key = await createKey(owner);
    expect(sessionOnly.length).toBeGreaterThan(10);
    for (const route of sessionOnly) {
      const [method, template] = route.route.split(" ") as [string, string];
      const path = template.replace(/\{[A-Za-z]+\}/g, "x");
      const res = await api(method, path, { token: key.secretKey });
      expect([route.route, res.status, code(res)]).toEqual([route.route, 403, "SESSION_REQUIRED"]);
    }
  });
});
