import { api, signupOwner, uniqueEmail } from "../../support/api";
import { agencyOwner, createKey } from "../../support/api-keys";
import { TEST_PASSWORD } from "../../support/constants";

/** Sessions the page's scripts cannot read, so an injected script cannot steal one (docs/api.md, "Sessions in a cookie"). */

const origin = () => new URL(process.env.BASE_URL as string).origin;
const COOKIE_MODE = { "x-inlet-session": "cookie" };

/** The cookie a sign-in set, as a browser would send it back (`name=value`). */
function cookieOf(res: { headers: Headers }): { header: string; sent: string } {
  const header = res.headers.get("set-cookie") ?? "";
  return { header, sent: header.split(";")[0] as string };
}

async function cookieLogin(email: string) {
  const res = await api("POST", "/api/v1/auth/login", { body: { email, password: TEST_PASSWORD }, headers: COOKIE_MODE });
  expect(res.status).toBe(200);
  return { res, cookie: cookieOf(res).sent };
}

describe("signing in from the dashboard", () => {
  test("login sets an HttpOnly, Secure, SameSite=Strict __Host- cookie, and the token is nowhere in the body", async () => {
    const owner = await signupOwner("cookie-login");
    const { res } = await cookieLogin(owner.email);
    const { header, sent } = cookieOf(res);
    // The test stack's BASE_URL is http://localhost or 127.0.0.1, which browsers treat as secure.
    expect(sent).toMatch(/^__Host-inlet_session=inlet_ss_[0-9A-Za-z]{38}$/);
    expect(header).toMatch(/; Path=\/;/);
    expect(header).toMatch(/; HttpOnly;/);
    expect(header).toMatch(/; Secure;/);
    expect(header).toMatch(/; SameSite=Strict$/);
    expect(header).not.toMatch(/Domain=/i);
    const maxAge = Number(/Max-Age=(\d+)/.exec(header)?.[1]);
    expect(maxAge).toBeGreaterThan(7 * 24 * 3600 - 60);
    expect(res.body.data.token).toBeUndefined();
    expect(res.text).not.toContain("inlet_ss_");
    expect(res.body.data.user.email).toBe(owner.email);
  });

  test("signup in cookie mode does the same; without the header, sign-in answers the bearer token as before", async () => {
    const email = uniqueEmail("cookie-signup");
    const res = await api("POST", "/api/v1/auth/signup", {
      body: { email, password: TEST_PASSWORD, name: "Cookie", organizationName: "Cookie Org" },
      headers: COOKIE_MODE,
    });
    expect(res.status).toBe(201);
    expect(cookieOf(res).sent).toMatch(/^__Host-inlet_session=inlet_ss_/);
    expect(res.text).not.toContain("inlet_ss_");
    const bearer = await api("POST", "/api/v1/auth/login", { body: { email, password: TEST_PASSWORD } });
    expect(bearer.body.data.token).toMatch(/^inlet_ss_/);
    expect(bearer.headers.get("set-cookie")).toBeNull();
  });
});

describe("the cookie as a session", () => {
  test("works on session routes and on bearer routes; reads need no Origin", async () => {
    const owner = await agencyOwner("cookie-routes");
    const { cookie } = await cookieLogin(owner.email);
    const me = await api("GET", "/api/v1/auth/me", { headers: { cookie } });
    expect([me.status, me.body.data.user.email]).toEqual([200, owner.email]);
    expect((await api("GET", "/api/v1/sites", { headers: { cookie } })).status).toBe(200);
    expect((await api("GET", "/api/v1/api-keys", { headers: { cookie } })).status).toBe(200);
  });

  test("a state-changing request needs the service's own Origin: same origin passes, a cross-origin form post is refused", async () => {
    const owner = await signupOwner("cookie-csrf");
    const { cookie } = await cookieLogin(owner.email);
    const own = await api("POST", "/api/v1/sites", { headers: { cookie, origin: origin() }, body: { name: "Mine" } });
    expect(own.status).toBe(201);
    // What a hostile page's <form method=post action=…/api/v1/sites> would send, had the browser attached the cookie.
    const crossSite = await api("POST", "/api/v1/sites", {
      headers: { cookie, origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      rawBody: "name=Hijacked",
    });
    expect([crossSite.status, crossSite.body.error.code]).toEqual([403, "CSRF_ORIGIN_MISMATCH"]);
    const noOrigin = await api("POST", "/api/v1/sites", { headers: { cookie }, body: { name: "No origin" } });
    expect([noOrigin.status, noOrigin.body.error.code]).toEqual([403, "CSRF_ORIGIN_MISMATCH"]);
    const sibling = await api("DELETE", `/api/v1/sites/${own.body.data.site.id}`, {
      headers: { cookie, origin: origin().replace("//", "//sub.") },
    });
    expect(sibling.status).toBe(403);
    const sites = await api("GET", "/api/v1/sites", { headers: { cookie } });
    expect(sites.body.data.sites.map((s: { name: string }) => s.name)).toEqual(["Mine"]);
  });

  test("bearer tokens and API keys work as before, and win over a cookie", async () => {
    const owner = await agencyOwner("cookie-bearer");
    const other = await signupOwner("cookie-other");
    const { cookie } = await cookieLogin(other.email);
    const key = await createKey(owner);
    // A bearer request needs no Origin, and a cookie beside it does not change who it is.
    const res = await api("POST", "/api/v1/sites", { token: key.secretKey, headers: { cookie }, body: { name: "By key" } });
    expect(res.status).toBe(201);
    const me = await api("GET", "/api/v1/auth/me", { token: owner.token, headers: { cookie } });
    expect(me.body.data.user.email).toBe(owner.email);
  });

  test("only a session token is accepted in the cookie; junk is 401", async () => {
    const owner = await agencyOwner("cookie-junk");
    const key = await createKey(owner);
    for (const value of [key.secretKey, "inlet_ss_nope", "", "x".repeat(500)]) {
      const res = await api("GET", "/api/v1/auth/me", { headers: { cookie: `__Host-inlet_session=${value}` } });
      expect([value.slice(0, 12), res.status]).toEqual([value.slice(0, 12), 401]);
    }
  });

  test("signing out clears the cookie and ends the session on the server", async () => {
    const owner = await signupOwner("cookie-logout");
    const { cookie } = await cookieLogin(owner.email);
    const out = await api("POST", "/api/v1/auth/logout", { headers: { cookie, origin: origin() } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(
      /^__Host-inlet_session=; Path=\/; Max-Age=0; HttpOnly; Secure; SameSite=Strict$/,
    );
    const after = await api("GET", "/api/v1/auth/me", { headers: { cookie } });
    expect(after.status).toBe(401);
  });
});

/**
 * Only our own cookie is a session. The reproduction, with curl: a request
 * carrying `inlet_session=<token A>` before `__Host-inlet_session=<token B>` acted as account A,
 * so an attacker who planted the unprefixed cookie (from a sibling subdomain, or over plain
 * http) had the victim work inside the attacker's organization. Sent with node:http, so the
 * Cookie header is exactly this one.
 */
describe("only our own cookie is a session", () => {
  const exact = (method: string, path: string, cookie: string, body?: unknown) =>
    api(method, path, { headers: { cookie, origin: origin() }, exactHeaders: true, ...(body ? { body } : {}) });

  async function attackerAndVictim() {
    const attacker = await signupOwner("planter");
    const victim = await signupOwner("victim");
    const { cookie } = await cookieLogin(victim.email);
    return { attacker, victim, victimToken: cookie.slice(cookie.indexOf("=") + 1) };
  }

  const siteNames = async (token: string) =>
    (await api("GET", "/api/v1/sites", { token })).body.data.sites.map((s: { name: string }) => s.name);

  test("the reproduction's header acts as the victim's own __Host- cookie: the planted one is not read", async () => {
    const { attacker, victim, victimToken } = await attackerAndVictim();
    const header = `inlet_session=${attacker.token}; __Host-inlet_session=${victimToken}`;
    const me = await exact("GET", "/api/v1/auth/me", header);
    expect([me.status, me.body.data.user.email]).toEqual([200, victim.email]);
    const created = await exact("POST", "/api/v1/sites", header, { name: "Victim's work" });
    expect(created.status).toBe(201);
    expect(await siteNames(victim.token)).toEqual(["Victim's work"]);
    expect(await siteNames(attacker.token)).toEqual([]);
  });

  test("the unprefixed cookie alone is no session where the service sets the __Host- one", async () => {
    const { attacker } = await attackerAndVictim();
    const res = await exact("GET", "/api/v1/auth/me", `inlet_session=${attacker.token}`);
    expect([res.status, res.body.error.code]).toEqual([401, "UNAUTHORIZED"]);
  });

  test("two session cookies are 401 SESSION_COOKIE_AMBIGUOUS in either order, and nothing is written", async () => {
    const { attacker, victim, victimToken } = await attackerAndVictim();
    const orders = [
      `__Host-inlet_session=${attacker.token}; __Host-inlet_session=${victimToken}`,
      `__Host-inlet_session=${victimToken}; __Host-inlet_session=${attacker.token}`,
      `inlet_session=${attacker.token}; __Host-inlet_session=${attacker.token}; __Host-inlet_session=${victimToken}`,
    ];
    for (const header of orders) {
      const me = await exact("GET", "/api/v1/auth/me", header);
      expect([me.status, me.body.error.code]).toEqual([401, "SESSION_COOKIE_AMBIGUOUS"]);
      const write = await exact("POST", "/api/v1/sites", header, { name: "Ambiguous" });
      expect([write.status, write.body.error.code]).toEqual([401, "SESSION_COOKIE_AMBIGUOUS"]);
    }
    expect(await siteNames(victim.token)).toEqual([]);
    expect(await siteNames(attacker.token)).toEqual([]);
  });
});
