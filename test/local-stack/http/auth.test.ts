import { api, signupOwner, uniqueEmail } from "../../support/api";
import { TEST_PASSWORD } from "../../support/constants";

const signupBody = (overrides: Record<string, unknown> = {}) => ({
  email: uniqueEmail("signup"),
  password: TEST_PASSWORD,
  name: "Ada Lovelace",
  organizationName: "Analytical Engines",
  ...overrides,
});

describe("POST /api/v1/auth/signup", () => {
  test("creates an owner, an organization on the default plan and a session", async () => {
    const body = signupBody();
    const res = await api("POST", "/api/v1/auth/signup", { body });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(["expiresAt", "organization", "role", "token", "user"]);
    expect(data.token).toMatch(/^inlet_ss_[0-9A-Za-z]{38}$/);
    expect(Date.parse(data.expiresAt)).toBeGreaterThan(Date.now());
    expect(data.user).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: body.email,
      emailVerified: false,
      name: "Ada Lovelace",
    });
    expect(data.organization).toEqual({ id: expect.stringMatching(/^org_/), name: "Analytical Engines", plan: "free" });
    expect(data.role).toBe("owner");
    expect(JSON.stringify(res.body)).not.toContain(TEST_PASSWORD);
  });

  test("an email is taken whatever its case: 409 EMAIL_TAKEN", async () => {
    const body = signupBody();
    expect((await api("POST", "/api/v1/auth/signup", { body })).status).toBe(201);
    const again = await api("POST", "/api/v1/auth/signup", { body: { ...body, email: body.email.toUpperCase() } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("EMAIL_TAKEN");
  });

  test("concurrent signups with one email create one account", async () => {
    const body = signupBody();
    const results = await Promise.all(Array.from({ length: 5 }, () => api("POST", "/api/v1/auth/signup", { body })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
  });

  test.each([
    ["a short password", { password: "short" }, "password"],
    ["an invalid email", { email: "not-an-email" }, "email"],
    ["a 256-character name", { name: "x".repeat(256) }, "name"],
    ["an empty name", { name: "   " }, "name"],
    ["an unknown field", { role: "owner" }, ""],
    ["both organizationName and inviteToken", { inviteToken: "inlet_inv_x" }, "organizationName"],
    ["a wrong type", { password: 1234567890123 }, "password"],
  ])("rejects %s with 400 VALIDATION_ERROR and details", async (_label, overrides, path) => {
    const res = await api("POST", "/api/v1/auth/signup", { body: signupBody(overrides) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  test("neither organizationName nor inviteToken: 400", async () => {
    const { organizationName: _, ...body } = signupBody();
    const res = await api("POST", "/api/v1/auth/signup", { body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
  });

  test("malformed JSON: 400 INVALID_JSON", async () => {
    const res = await api("POST", "/api/v1/auth/signup", {
      rawBody: '{"email": ',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: { code: "INVALID_JSON", message: expect.any(String) } });
  });

  test("a JSON array or scalar body: 400 VALIDATION_ERROR", async () => {
    for (const rawBody of ["[]", "42", "null", '"text"']) {
      const res = await api("POST", "/api/v1/auth/signup", { rawBody, headers: { "content-type": "application/json" } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
  });

  test("a non-JSON content type: 415 UNSUPPORTED_MEDIA_TYPE", async () => {
    const res = await api("POST", "/api/v1/auth/signup", {
      rawBody: "email=a%40b.c",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  test("a body over 64 KB: 413 PAYLOAD_TOO_LARGE", async () => {
    const res = await api("POST", "/api/v1/auth/signup", { body: signupBody({ name: "x".repeat(70_000) }) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  test("a prototype-polluting body is rejected and pollutes nothing", async () => {
    const res = await api("POST", "/api/v1/auth/signup", {
      rawBody: JSON.stringify(signupBody()).replace("{", '{"__proto__":{"polluted":true},'),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("POST /api/v1/auth/login", () => {
  test("a correct password returns a new session with user, organization and role", async () => {
    const owner = await signupOwner("login");
    const res = await api("POST", "/api/v1/auth/login", { body: { email: owner.email.toUpperCase(), password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      token: expect.stringMatching(/^inlet_ss_/),
      expiresAt: expect.any(String),
      user: { id: owner.userId, email: owner.email, emailVerified: false, name: "Test login" },
      organization: { id: owner.orgId, name: "Org login", plan: "free" },
      role: "owner",
    });
    expect(res.body.data.token).not.toBe(owner.token);
    const me = await api("GET", "/api/v1/auth/me", { token: res.body.data.token });
    expect(me.status).toBe(200);
  });

  test("a wrong password and an unknown email get the same 401 INVALID_CREDENTIALS", async () => {
    const owner = await signupOwner("badlogin");
    const wrong = await api("POST", "/api/v1/auth/login", { body: { email: owner.email, password: "wrong password!" } });
    const unknown = await api("POST", "/api/v1/auth/login", { body: { email: uniqueEmail("nobody"), password: TEST_PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe("INVALID_CREDENTIALS");
  });

  test("the limit holds under concurrency: of 40 simultaneous wrong passwords for one address, 10 are judged", async () => {
    const owner = await signupOwner("throttle-burst");
    const attempts = await Promise.all(
      Array.from({ length: 40 }, () =>
        api("POST", "/api/v1/auth/login", { body: { email: owner.email, password: "wrong password!" } }),
      ),
    );
    const statuses = attempts.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const right = await api("POST", "/api/v1/auth/login", { body: { email: owner.email, password: TEST_PASSWORD } });
    expect(right.status).toBe(429);
  });

  test("repeated failures for one email are throttled with 429 and Retry-After, even for the right password", async () => {
    const owner = await signupOwner("throttle");
    for (let i = 0; i < 10; i++) {
      const res = await api("POST", "/api/v1/auth/login", { body: { email: owner.email, password: `wrong-${i}-password` } });
      expect(res.status).toBe(401);
    }
    const blocked = await api("POST", "/api/v1/auth/login", { body: { email: owner.email, password: TEST_PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe("RATE_LIMITED");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await signupOwner("unaffected");
    const ok = await api("POST", "/api/v1/auth/login", { body: { email: other.email, password: TEST_PASSWORD } });
    expect(ok.status).toBe(200);
  });
});

describe("sessions", () => {
  test("GET /auth/me returns user, organization with plan, role, permissions and platformAdmin", async () => {
    const owner = await signupOwner("me");
    const res = await api("GET", "/api/v1/auth/me", { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      user: { id: owner.userId, email: owner.email, emailVerified: false, name: "Test me", emailLost: false },
      organization: { id: owner.orgId, name: "Org me", plan: "free" },
      role: "owner",
      permissions: expect.arrayContaining(["sites.view", "team.manage"]),
      platformAdmin: false,
    });
  });

  test("logout ends the session at once", async () => {
    const owner = await signupOwner("logout");
    const out = await api("POST", "/api/v1/auth/logout", { token: owner.token });
    expect(out.status).toBe(200);
    expect(out.body.data.message).toEqual(expect.any(String));
    const me = await api("GET", "/api/v1/auth/me", { token: owner.token });
    expect(me.status).toBe(401);
    expect(me.body.error.code).toBe("UNAUTHORIZED");
  });

  test.each([
    ["no Authorization header", undefined],
    ["a non-bearer scheme", "Basic dXNlcjpwYXNz"],
    ["an unknown prefix", "Bearer sk_live_123"],
    ["a token with a broken checksum", "Bearer inlet_ss_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
  ])("%s: 401 UNAUTHORIZED", async (_label, authorization) => {
    const res = await api("GET", "/api/v1/auth/me", authorization ? { headers: { authorization } } : {});
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHORIZED");
  });

  test("a mistyped session token is rejected", async () => {
    const owner = await signupOwner("typo");
    const last = owner.token.at(-1) === "a" ? "b" : "a";
    const res = await api("GET", "/api/v1/auth/me", { token: owner.token.slice(0, -1) + last });
    expect(res.status).toBe(401);
  });
});

describe("unmatched routes", () => {
  test.each([
    ["GET", "/api/v1/nothing-here"],
    ["DELETE", "/api/v1/auth/me"],
    ["PATCH", "/api/v1/sites"],
  ])("%s %s: 404 NOT_FOUND in the JSON envelope", async (method, path) => {
    const res = await api(method, path);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
  });
});
