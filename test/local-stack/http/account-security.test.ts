import { api, emailedLinkToken, signupOwner, uniqueEmail } from "../../support/api";
import { agencyOwner, createKey } from "../../support/api-keys";
import { TEST_PASSWORD } from "../../support/constants";
import { emailsTo } from "../pipeline/support/emails";

/**
 * A signed-in account's security: the password changed with the current one, "sign out
 * everywhere else", the display name (docs/accounts.md).
 */

const NEW_PASSWORD = "another long passphrase";
const origin = () => new URL(process.env.BASE_URL as string).origin;

const login = (email: string, password = TEST_PASSWORD) => api("POST", "/api/v1/auth/login", { body: { email, password } });
const signIn = async (email: string) => (await login(email)).body.data.token as string;
const change = (token: string, currentPassword: string, newPassword = NEW_PASSWORD) =>
  api("PUT", "/api/v1/auth/password", { token, body: { currentPassword, newPassword } });
const endOthers = (token: string) => api("POST", "/api/v1/auth/logout/others", { token });
const meStatus = async (token: string) => {
  const res = await api("GET", "/api/v1/auth/me", { token });
  return res.status === 200 ? 200 : `${res.status} ${res.body.error.code}`;
};

describe("changing the password while signed in", () => {
  test("needs the current password; then this session stays, every other one ends, and the address is told", async () => {
    const owner = await signupOwner("change");
    const other = await signIn(owner.email);
    const cookieLogin = await api("POST", "/api/v1/auth/login", {
      body: { email: owner.email, password: TEST_PASSWORD },
      headers: { "x-inlet-session": "cookie" },
    });
    const cookie = (cookieLogin.headers.get("set-cookie") ?? "").split(";")[0] as string;

    const wrong = await change(owner.token, "not my password");
    expect([wrong.status, wrong.body.error.code]).toEqual([403, "CURRENT_PASSWORD_INVALID"]);
    expect(wrong.body.error.details).toEqual([{ path: "currentPassword", message: expect.any(String) }]);
    expect(await meStatus(other)).toBe(200);
    expect((await login(owner.email)).status).toBe(200);

    const res = await change(owner.token, TEST_PASSWORD);
    expect([res.status, res.body.data.message]).toEqual([200, expect.stringMatching(/other session/)]);
    expect(await meStatus(owner.token)).toBe(200);
    expect(await meStatus(other)).toBe("401 SESSION_ENDED");
    const byCookie = await api("GET", "/api/v1/auth/me", { headers: { cookie } });
    expect([byCookie.status, byCookie.body.error.code]).toEqual([401, "SESSION_ENDED"]);
    expect((await login(owner.email)).status).toBe(401);
    const fresh = await login(owner.email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect(await meStatus(fresh.body.data.token)).toBe(200);

    const notices = (await emailsTo(owner.email)).filter((e) => e.subject === "Your Inlet password was changed");
    expect(notices).toHaveLength(1);
    expect(notices[0]?.body.text).toMatch(/\/forgot-password/);
  });

  test("an account whose address was reclaimed changes its password without mailing the address's owner", async () => {
    const address = uniqueEmail("reclaimed");
    const squat = await api("POST", "/api/v1/auth/signup", {
      body: { email: address, password: TEST_PASSWORD, name: "Typo", organizationName: "Typo Org" },
    });
    const reclaimToken = await emailedLinkToken(address);
    const mine = await api("POST", "/api/v1/auth/signup", {
      body: { email: address, password: TEST_PASSWORD, name: "Owner", organizationName: "Mine", reclaimToken },
    });
    expect(mine.status).toBe(201);
    const changedNotices = async () => (await emailsTo(address)).filter((e) => e.subject === "Your Inlet password was changed");

    const lost = await change(squat.body.data.token, TEST_PASSWORD);
    expect(lost.status).toBe(200);
    expect(await changedNotices()).toEqual([]);
    // The owner's own change is told to the address, which is theirs.
    expect((await change(mine.body.data.token, TEST_PASSWORD)).status).toBe(200);
    expect(await changedNotices()).toHaveLength(1);
  });

  test("an ended session cannot change the password", async () => {
    const owner = await signupOwner("change-ended");
    const other = await signIn(owner.email);
    expect((await endOthers(owner.token)).status).toBe(200);
    const res = await change(other, TEST_PASSWORD);
    expect([res.status, res.body.error.code]).toEqual([401, "SESSION_ENDED"]);
    expect((await login(owner.email)).status).toBe(200);
  });

  test("refuses a short new password, an API key, and a cookie request from another origin", async () => {
    const owner = await agencyOwner("change-refusals");
    const short = await change(owner.token, TEST_PASSWORD, "short");
    expect([short.status, short.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    const key = await createKey(owner);
    const byKey = await change(key.secretKey, TEST_PASSWORD);
    expect([byKey.status, byKey.body.error.code]).toEqual([403, "SESSION_REQUIRED"]);
    const cookieLogin = await api("POST", "/api/v1/auth/login", {
      body: { email: owner.email, password: TEST_PASSWORD },
      headers: { "x-inlet-session": "cookie" },
    });
    const cookie = (cookieLogin.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const forged = await api("PUT", "/api/v1/auth/password", {
      headers: { cookie, origin: "https://evil.example" },
      body: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect([forged.status, forged.body.error.code]).toEqual([403, "CSRF_ORIGIN_MISMATCH"]);
    const own = await api("PUT", "/api/v1/auth/password", {
      headers: { cookie, origin: origin() },
      body: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(own.status).toBe(200);
  });

  test("guessing the current password is limited: the 11th attempt in 15 minutes is 429, even a right one", async () => {
    const owner = await signupOwner("change-guess");
    for (let i = 0; i < 10; i++) {
      expect((await change(owner.token, `guess number ${i}`)).status).toBe(403);
    }
    const blocked = await change(owner.token, TEST_PASSWORD);
    expect([blocked.status, blocked.body.error.code]).toEqual([429, "RATE_LIMITED"]);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await login(owner.email)).status).toBe(200);
  });
});

describe("signing out everywhere else", () => {
  test("ends every other session, keeps this one, and later sign-ins work", async () => {
    const owner = await signupOwner("others");
    const [second, third] = [await signIn(owner.email), await signIn(owner.email)];
    const res = await endOthers(owner.token);
    expect([res.status, res.body.data.message]).toEqual([200, expect.any(String)]);
    expect(await meStatus(owner.token)).toBe(200);
    expect(await meStatus(second)).toBe("401 SESSION_ENDED");
    expect(await meStatus(third)).toBe("401 SESSION_ENDED");
    // An ended session cannot come back by ending the others in turn.
    expect((await endOthers(second)).status).toBe(401);
    expect(await meStatus(owner.token)).toBe(200);
    const later = await signIn(owner.email);
    expect(await meStatus(later)).toBe(200);
    // Another account's sessions are not touched.
    const stranger = await signupOwner("others-stranger");
    expect(await meStatus(stranger.token)).toBe(200);
  });

  test("two sessions asking at once: exactly one survives", async () => {
    const owner = await signupOwner("others-race");
    const second = await signIn(owner.email);
    const answers = await Promise.all([endOthers(owner.token), endOthers(second)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    const statuses = [await meStatus(owner.token), await meStatus(second)];
    expect(statuses.sort()).toEqual([200, "401 SESSION_ENDED"].sort());
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  });
});

describe("the display name", () => {
  test("PUT /auth/me changes it, trimmed, for every session and the team list", async () => {
    const owner = await signupOwner("rename-me");
    const res = await api("PUT", "/api/v1/auth/me", { token: owner.token, body: { name: "  Ada Lovelace " } });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toEqual({
      id: owner.userId,
      email: owner.email,
      emailVerified: false,
      emailLost: false,
      name: "Ada Lovelace",
    });
    expect(res.body.data.role).toBe("owner");
    const other = await signIn(owner.email);
    expect((await api("GET", "/api/v1/auth/me", { token: other })).body.data.user.name).toBe("Ada Lovelace");
    const team = await api("GET", "/api/v1/team", { token: owner.token });
    expect(team.body.data.members.map((m: { name: string }) => m.name)).toEqual(["Ada Lovelace"]);
    // Renaming ends no session.
    expect(await meStatus(owner.token)).toBe(200);
  });

  test("an empty or overlong name is 400 and changes nothing", async () => {
    const owner = await signupOwner("rename-bad");
    for (const name of ["", "   ", "x".repeat(256)]) {
      const res = await api("PUT", "/api/v1/auth/me", { token: owner.token, body: { name } });
      expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    }
    const extra = await api("PUT", "/api/v1/auth/me", { token: owner.token, body: { name: "Ok", email: "x@example.com" } });
    expect([extra.status, extra.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect((await api("GET", "/api/v1/auth/me", { token: owner.token })).body.data.user.name).toBe("Test rename-bad");
  });
});
