import { emailsTo } from "../pipeline/support/emails";
import { api, emailedLinkToken, signupOwner, uniqueEmail } from "../support/api";
import { CLAIMABLE_ADMIN_EMAILS, TEST_PASSWORD } from "../support/constants";
import { expireEmailLink } from "../support/email-links";

/** Issue 14, part 2: an address belongs to whoever proves it (docs/accounts.md). */

const verify = (token: string) => api("POST", "/api/v1/auth/verify-email", { body: { token } });
const me = async (token: string) => (await api("GET", "/api/v1/auth/me", { token })).body.data;
const signup = (email: string, extra: Record<string, unknown> = { organizationName: "Org" }) =>
  api("POST", "/api/v1/auth/signup", { body: { email, password: TEST_PASSWORD, name: "Someone", ...extra } });

describe("the verification email", () => {
  test("arrives at signup with a single-use link whose token is only in the fragment, and verifies the address", async () => {
    const owner = await signupOwner("verify");
    expect((await me(owner.token)).user.emailVerified).toBe(false);
    const token = await emailedLinkToken(owner.email);
    const [email] = await emailsTo(owner.email);
    expect(email?.subject).toMatch(/confirm your email/i);
    const link = /(https?:\/\/\S+#token=\S+)/.exec(email?.body.text ?? "")?.[1] ?? "";
    const url = new URL(link);
    expect(url.pathname).toBe("/verify-email");
    expect(url.search).toBe("");
    expect(url.hash).toBe(`#token=${token}`);
    expect(email?.body.html).toContain(`#token=${token}`);

    const res = await verify(token);
    expect([res.status, res.body.data]).toEqual([200, { email: owner.email, emailVerified: true }]);
    expect((await me(owner.token)).user.emailVerified).toBe(true);
    const login = await api("POST", "/api/v1/auth/login", { body: { email: owner.email, password: TEST_PASSWORD } });
    expect(login.body.data.user.emailVerified).toBe(true);
  });

  test("a reused link is 400 EMAIL_LINK_INVALID, as is a made-up one", async () => {
    const owner = await signupOwner("reuse");
    const token = await emailedLinkToken(owner.email);
    expect((await verify(token)).status).toBe(200);
    const again = await verify(token);
    expect([again.status, again.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    for (const bogus of ["inlet_eml_nope", `${token.slice(0, -1)}x`, "x".repeat(200)]) {
      const res = await verify(bogus);
      expect([res.status, res.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    }
  });

  test("an expired link is 410 EMAIL_LINK_EXPIRED and verifies nothing; a resent one works", async () => {
    const owner = await signupOwner("expired");
    const token = await emailedLinkToken(owner.email);
    await expireEmailLink(token);
    const res = await verify(token);
    expect([res.status, res.body.error.code]).toEqual([410, "EMAIL_LINK_EXPIRED"]);
    expect((await me(owner.token)).user.emailVerified).toBe(false);

    const resend = await api("POST", "/api/v1/auth/verify-email/resend", { token: owner.token });
    expect([resend.status, resend.body.data]).toEqual([202, { email: owner.email, sent: true }]);
    const fresh = await emailedLinkToken(owner.email, 2);
    expect(fresh).not.toBe(token);
    expect((await verify(fresh)).status).toBe(200);
    const done = await api("POST", "/api/v1/auth/verify-email/resend", { token: owner.token });
    expect([done.status, done.body.error.code]).toEqual([409, "EMAIL_ALREADY_VERIFIED"]);
  });

  test("resending is limited per address (429 after 5 an hour)", async () => {
    const owner = await signupOwner("resend-limit");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await api("POST", "/api/v1/auth/verify-email/resend", { token: owner.token })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});

describe("platform admin needs a verified address", () => {
  test("inviting a listed admin address into one's own organization and accepting it confers nothing", async () => {
    const [address] = CLAIMABLE_ADMIN_EMAILS;
    const attacker = await signupOwner("claimer");
    const invite = await api("POST", "/api/v1/team/invites", { token: attacker.token, body: { email: address, role: "admin" } });
    expect(invite.status).toBe(201);
    const joined = await signup(address, { inviteToken: invite.body.data.inviteToken });
    expect(joined.status).toBe(201);
    const token = joined.body.data.token as string;
    expect(await me(token)).toMatchObject({ platformAdmin: false, user: { emailVerified: false } });
    const list = await api("GET", "/api/v1/admin/organizations", { token });
    expect([list.status, list.body.error.code]).toEqual([403, "PLATFORM_ADMIN_REQUIRED"]);
    // The joined organization works as before: the invite's role applies.
    expect((await api("GET", "/api/v1/team", { token })).status).toBe(200);
  });

  test("a listed address signed up without proof is no admin; with the emailed proof it is", async () => {
    const [, address] = CLAIMABLE_ADMIN_EMAILS;
    const res = await signup(address);
    expect(res.status).toBe(201);
    const token = res.body.data.token as string;
    expect((await me(token)).platformAdmin).toBe(false);
    expect((await api("GET", "/api/v1/admin/organizations", { token })).status).toBe(403);

    expect((await verify(await emailedLinkToken(address))).status).toBe(200);
    expect((await me(token)).platformAdmin).toBe(true);
    expect((await api("GET", "/api/v1/admin/organizations", { token })).status).toBe(200);
  });
});

describe("reclaiming an address an unverified account holds", () => {
  test("the owner of the address gets it back with the emailed reclaim link; the squatter's links and login stop", async () => {
    const victim = uniqueEmail("victim");
    const squat = await signup(victim, { organizationName: "Squatter" });
    expect(squat.status).toBe(201);
    const squatterLink = await emailedLinkToken(victim);
    const taken = await signup(victim);
    expect([taken.status, taken.body.error.code]).toEqual([409, "EMAIL_TAKEN"]);
    expect(taken.body.error.message).toMatch(/reclaim-email/);

    const ask = await api("POST", "/api/v1/auth/reclaim-email", { body: { email: victim } });
    expect([ask.status, ask.body.data]).toEqual([202, { email: victim }]);
    const reclaimToken = await emailedLinkToken(victim, 2);
    const [, reclaimEmail] = await emailsTo(victim);
    expect(reclaimEmail?.body.text).toMatch(/\/reclaim-email#token=inlet_eml_/);
    // A reclaim link is not a verification link, and the other way round.
    expect((await verify(reclaimToken)).status).toBe(400);
    const wrongLink = await signup(victim, { organizationName: "Mine", reclaimToken: squatterLink });
    expect([wrongLink.status, wrongLink.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);

    const withInvite = await signup(victim, { inviteToken: "inlet_inv_x", reclaimToken });
    expect([withInvite.status, withInvite.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    const mine = await signup(victim, { organizationName: "Mine", reclaimToken });
    expect(mine.status).toBe(201);
    expect(mine.body.data.user.emailVerified).toBe(true);
    expect(mine.body.data.organization.name).toBe("Mine");
    // Single use.
    const again = await signup(victim, { organizationName: "Twice", reclaimToken });
    expect(again.status).toBe(400);
    // Login with the address reaches the new account; the squatter's old verification link is void.
    const login = await api("POST", "/api/v1/auth/login", { body: { email: victim, password: TEST_PASSWORD } });
    expect(login.body.data.user.id).toBe(mine.body.data.user.id);
    const stale = await verify(squatterLink);
    expect([stale.status, stale.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
  });

  test("a verified address cannot be reclaimed: the request answers alike and sends nothing", async () => {
    const owner = await signupOwner("verified-holder");
    expect((await verify(await emailedLinkToken(owner.email))).status).toBe(200);
    const ask = await api("POST", "/api/v1/auth/reclaim-email", { body: { email: owner.email } });
    expect([ask.status, ask.body.data]).toEqual([202, { email: owner.email }]);
    await new Promise((r) => setTimeout(r, 500));
    expect(await emailsTo(owner.email)).toHaveLength(1);
  });
});
