import { api, baseUrl, emailedLinkToken, signupOwner, uniqueEmail } from "../../support/api";
import { CLAIMABLE_ADMIN_EMAILS, TEST_PASSWORD } from "../../support/constants";
import { expireEmailLink } from "../../support/email-links";
import { pipelineBarrier } from "../pipeline/support/barrier";
import { emailsTo, waitForEmails } from "../pipeline/support/emails";

/**
 * An address belongs to whoever proves it (docs/accounts.md), so nobody can squat one: only
 * the account's own session confirms a link, opening one changes nothing, and a reclaimed
 * address's old account is told and not stranded.
 */

const verify = (token: string, session?: string) =>
  api("POST", "/api/v1/auth/verify-email", { body: { token }, ...(session ? { token: session } : {}) });
const describeLink = (token: string) => api("POST", "/api/v1/auth/email-links/describe", { body: { token } });
const me = async (token: string) => (await api("GET", "/api/v1/auth/me", { token })).body.data;
const signup = (email: string, extra: Record<string, unknown> = { organizationName: "Org" }) =>
  api("POST", "/api/v1/auth/signup", { body: { email, password: TEST_PASSWORD, name: "Someone", ...extra } });
const reclaimRequest = (email: string, extra: Record<string, unknown> = {}) =>
  api("POST", "/api/v1/auth/reclaim-email", { body: { email, ...extra } });
const resend = (session: string) => api("POST", "/api/v1/auth/verify-email/resend", { token: session });

describe("the verification email", () => {
  test("names the account and organization, carries its token only in the fragment, and offers 'this was not me'", async () => {
    const owner = await signupOwner("verify");
    expect((await me(owner.token)).user).toMatchObject({ emailVerified: false, emailLost: false });
    const token = await emailedLinkToken(owner.email);
    const [email] = await emailsTo(owner.email);
    expect(email?.subject).toMatch(/confirm your email/i);
    expect(email?.body.text).toContain(
      'The Inlet account "Test verify" in the organization "Org verify" was created with this address',
    );
    const link = /(https?:\/\/\S+#token=\S+)/.exec(email?.body.text ?? "")?.[1] ?? "";
    const url = new URL(link);
    expect(url.pathname).toBe("/verify-email");
    expect(url.search).toBe("");
    expect(url.hash).toBe(`#token=${token}`);
    expect(email?.body.html).toContain(`#token=${token}`);
    // "This was not me" leads to taking the address back, never to confirming.
    expect(email?.body.text).toContain(`/reclaim-email#token=${token}`);
    expect(email?.body.html).toContain("This was not me: take my address back");

    const res = await verify(token, owner.token);
    expect([res.status, res.body.data]).toEqual([200, { email: owner.email, emailVerified: true }]);
    expect((await me(owner.token)).user.emailVerified).toBe(true);
    const login = await api("POST", "/api/v1/auth/login", { body: { email: owner.email, password: TEST_PASSWORD } });
    expect(login.body.data.user.emailVerified).toBe(true);
  });

  test("opening the link confirms nothing: the page, a GET, a prefetch, the description, or a POST without the account's session", async () => {
    const owner = await signupOwner("opened");
    const token = await emailedLinkToken(owner.email);
    // What a mail provider's scanner or a browser's prefetch does with the link: GET the page
    // (the fragment is never sent), GET or HEAD the API path.
    const page = await fetch(`${baseUrl()}/verify-email`);
    expect([page.status, (await page.text()).includes('<div id="root"></div>')]).toEqual([200, true]);
    for (const method of ["GET", "HEAD"]) {
      // HEAD has no body to check against the document.
      expect((await api(method, `/api/v1/auth/verify-email?token=${token}`, { unchecked: method === "HEAD" })).status).toBe(404);
    }
    // What the page does on load: it describes the link, as often as it is opened.
    for (let i = 0; i < 2; i++) {
      const described = await describeLink(token);
      expect([described.status, described.body.data]).toEqual([
        200,
        {
          purpose: "verify",
          email: owner.email,
          expiresAt: expect.any(String),
          account: { name: "Test opened" },
          organization: { name: "Org opened" },
        },
      ]);
    }
    // A click by someone who is not signed in, or signed in as another account.
    const anonymous = await verify(token);
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, "UNAUTHORIZED"]);
    const stranger = await signupOwner("stranger");
    const other = await verify(token, stranger.token);
    expect([other.status, other.body.error.code]).toEqual([403, "EMAIL_LINK_OTHER_ACCOUNT"]);
    expect((await me(owner.token)).user.emailVerified).toBe(false);
    expect((await me(stranger.token)).user.emailVerified).toBe(false);
    // The link is unused: its account confirms it still.
    expect((await verify(token, owner.token)).status).toBe(200);
  });

  test("a reused link is 400 EMAIL_LINK_INVALID, as is a made-up one, to confirm and to describe", async () => {
    const owner = await signupOwner("reuse");
    const token = await emailedLinkToken(owner.email);
    expect((await verify(token, owner.token)).status).toBe(200);
    for (const call of [() => verify(token, owner.token), () => describeLink(token)]) {
      const again = await call();
      expect([again.status, again.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    }
    for (const bogus of ["inlet_eml_nope", `${token.slice(0, -1)}x`, "x".repeat(200)]) {
      for (const res of [await verify(bogus, owner.token), await describeLink(bogus)]) {
        expect([res.status, res.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
      }
    }
  });

  test("an expired link is 410 EMAIL_LINK_EXPIRED and verifies nothing; a resent one works", async () => {
    const owner = await signupOwner("expired");
    const token = await emailedLinkToken(owner.email);
    await expireEmailLink(token);
    for (const res of [await verify(token, owner.token), await describeLink(token)]) {
      expect([res.status, res.body.error.code]).toEqual([410, "EMAIL_LINK_EXPIRED"]);
    }
    expect((await me(owner.token)).user.emailVerified).toBe(false);

    const resent = await resend(owner.token);
    expect([resent.status, resent.body.data]).toEqual([202, { email: owner.email, sent: true }]);
    const fresh = await emailedLinkToken(owner.email, 2);
    expect(fresh).not.toBe(token);
    expect((await describeLink(fresh)).body.data.account).toEqual({ name: "Test expired" });
    expect((await verify(fresh, owner.token)).status).toBe(200);
    const done = await resend(owner.token);
    expect([done.status, done.body.error.code]).toEqual([409, "EMAIL_ALREADY_VERIFIED"]);
  });

  test("resending is limited per address (429 after 5 an hour)", async () => {
    const owner = await signupOwner("resend-limit");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await resend(owner.token)).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});

describe("platform admin needs a verified address, confirmed from the account's own session", () => {
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

  test("a listed address signed up without proof is no admin; confirmed from its own session it is", async () => {
    const [, address] = CLAIMABLE_ADMIN_EMAILS;
    const res = await signup(address);
    expect(res.status).toBe(201);
    const token = res.body.data.token as string;
    expect((await me(token)).platformAdmin).toBe(false);
    expect((await api("GET", "/api/v1/admin/organizations", { token })).status).toBe(403);

    expect((await verify(await emailedLinkToken(address), token)).status).toBe(200);
    expect((await me(token)).platformAdmin).toBe(true);
    expect((await api("GET", "/api/v1/admin/organizations", { token })).status).toBe(200);
  });

  test("the victim's click with the attacker's token cannot make the attacker platform admin; 'not me' gives the victim the address", async () => {
    const [, , address] = CLAIMABLE_ADMIN_EMAILS;
    const squat = await signup(address, { organizationName: "Squatters" });
    expect(squat.status).toBe(201);
    const attacker = squat.body.data.token as string;
    // The victim reads the verification email sent to their address, and clicks the link.
    const token = await emailedLinkToken(address);
    expect((await verify(token)).status).toBe(401);
    const victimElsewhere = await signupOwner("victim-elsewhere");
    expect((await verify(token, victimElsewhere.token)).body.error.code).toBe("EMAIL_LINK_OTHER_ACCOUNT");
    expect(await me(attacker)).toMatchObject({ platformAdmin: false, user: { emailVerified: false } });
    expect((await api("GET", "/api/v1/admin/organizations", { token: attacker })).status).toBe(403);

    // "This was not me": the same link takes the address back, into the victim's own account.
    const mine = await signup(address, { organizationName: "Mine", reclaimToken: token });
    expect(mine.status).toBe(201);
    const victim = mine.body.data.token as string;
    expect(await me(victim)).toMatchObject({ platformAdmin: true, user: { email: address, emailVerified: true } });
    // The attacker's account is told, holds nothing, and gets no more email at the address.
    expect(await me(attacker)).toMatchObject({ platformAdmin: false, user: { emailVerified: false, emailLost: true } });
    expect((await verify(token, attacker)).status).toBe(400);
    const before = (await emailsTo(address)).length;
    const again = await resend(attacker);
    expect([again.status, again.body.error.code]).toEqual([409, "EMAIL_RECLAIMED"]);
    await pipelineBarrier();
    expect(await emailsTo(address)).toHaveLength(before);
  });
});

describe("reclaiming an address an unverified account holds", () => {
  test("the owner of the address gets it back with the emailed reclaim link; the squatter is told and its links and login stop", async () => {
    const victim = uniqueEmail("victim");
    const squat = await signup(victim, { organizationName: "Squatter" });
    expect(squat.status).toBe(201);
    const squatter = squat.body.data.token as string;
    const squatterLink = await emailedLinkToken(victim);
    const taken = await signup(victim);
    expect([taken.status, taken.body.error.code]).toEqual([409, "EMAIL_TAKEN"]);
    expect(taken.body.error.message).toMatch(/reclaim-email/);

    const ask = await reclaimRequest(victim);
    expect([ask.status, ask.body.data]).toEqual([202, { email: victim }]);
    const reclaimToken = await emailedLinkToken(victim, 2);
    const [, reclaimEmail] = await emailsTo(victim);
    expect(reclaimEmail?.body.text).toMatch(/\/reclaim-email#token=inlet_eml_/);
    expect((await describeLink(reclaimToken)).body.data).toEqual({
      purpose: "reclaim",
      email: victim,
      expiresAt: expect.any(String),
    });
    // A reclaim link is not a verification link.
    expect((await verify(reclaimToken, squatter)).status).toBe(400);
    const badInvite = await signup(victim, { inviteToken: "inlet_inv_x", reclaimToken });
    expect([badInvite.status, badInvite.body.error.code]).toEqual([410, "INVITE_INVALID"]);
    const neither = await signup(victim, { reclaimToken });
    expect([neither.status, neither.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);

    const mine = await signup(victim, { organizationName: "Mine", reclaimToken });
    expect(mine.status).toBe(201);
    expect(mine.body.data.user.emailVerified).toBe(true);
    expect(mine.body.data.organization.name).toBe("Mine");
    // Single use.
    const twice = await signup(victim, { organizationName: "Twice", reclaimToken });
    expect(twice.status).toBe(400);
    // Login with the address reaches the new account; the squatter's old verification link is void.
    const login = await api("POST", "/api/v1/auth/login", { body: { email: victim, password: TEST_PASSWORD } });
    expect(login.body.data.user.id).toBe(mine.body.data.user.id);
    const stale = await verify(squatterLink, squatter);
    expect([stale.status, stale.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    // The squatter keeps its session and organization, and is told it lost the address.
    expect(await me(squatter)).toMatchObject({ organization: { name: "Squatter" }, user: { email: victim, emailLost: true } });
  });

  test("a reclaim asked from an invite joins the inviting organization, also with the invite given again", async () => {
    const owner = await signupOwner("inviter");
    for (const giveInviteAgain of [false, true]) {
      const invited = uniqueEmail("invited");
      expect((await signup(invited, { organizationName: "Squatter" })).status).toBe(201);
      const invite = await api("POST", "/api/v1/team/invites", { token: owner.token, body: { email: invited, role: "admin" } });
      const inviteToken = invite.body.data.inviteToken as string;
      const accept = await signup(invited, { inviteToken });
      expect([accept.status, accept.body.error.code]).toEqual([409, "EMAIL_TAKEN"]);

      expect((await reclaimRequest(invited, { inviteToken })).status).toBe(202);
      const reclaimToken = await emailedLinkToken(invited, 2);
      const [, email] = await emailsTo(invited);
      expect(email?.body.text).toContain('join the organization "Org inviter" as admin');
      expect((await describeLink(reclaimToken)).body.data.invite).toEqual({
        organization: { name: "Org inviter" },
        role: "admin",
      });
      const joined = await signup(invited, giveInviteAgain ? { inviteToken, reclaimToken } : { reclaimToken });
      expect(joined.status).toBe(201);
      expect(joined.body.data).toMatchObject({
        organization: { id: owner.orgId },
        role: "admin",
        user: { email: invited, emailVerified: true },
      });
      // The invite is used.
      expect((await signup(uniqueEmail(), { inviteToken })).status).toBe(410);
    }
  });

  test("a reclaim request with an invite that is not for the address, or unknown, is 410 INVITE_INVALID and sends nothing", async () => {
    const owner = await signupOwner("inviter2");
    const invite = await api("POST", "/api/v1/team/invites", {
      token: owner.token,
      body: { email: uniqueEmail("someone-else"), role: "member" },
    });
    const address = uniqueEmail("held");
    expect((await signup(address)).status).toBe(201);
    for (const inviteToken of [invite.body.data.inviteToken, "inlet_inv_unknown"]) {
      const res = await reclaimRequest(address, { inviteToken });
      expect([res.status, res.body.error.code]).toEqual([410, "INVITE_INVALID"]);
    }
    await pipelineBarrier();
    expect(await emailsTo(address)).toHaveLength(1);
  });

  test("every answer is alike, whether an unverified account, a verified one or nobody holds the address; only the first gets a link", async () => {
    const unverified = uniqueEmail("held-unverified");
    expect((await signup(unverified)).status).toBe(201);
    const verifiedOwner = await signupOwner("held-verified");
    expect((await verify(await emailedLinkToken(verifiedOwner.email), verifiedOwner.token)).status).toBe(200);
    const nobody = uniqueEmail("held-by-nobody");

    const shapes = [];
    for (const address of [unverified, verifiedOwner.email, nobody]) {
      const res = await reclaimRequest(address);
      const headers = [...res.headers.keys()].filter((h) => !["date", "x-request-id", "content-length"].includes(h)).sort();
      shapes.push({ status: res.status, body: res.text.replace(address, "<address>"), headers });
    }
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
    expect(shapes[0]).toMatchObject({ status: 202, body: '{"success":true,"data":{"email":"<address>"}}' });

    const [, link] = await waitForEmails(unverified, 2);
    expect(link?.subject).toMatch(/take back your email address/i);
    expect(await emailsTo(verifiedOwner.email)).toHaveLength(1);
    expect(await emailsTo(nobody)).toHaveLength(0);
  });

  test("reclaim requests are limited per address (429 after 5 an hour)", async () => {
    const address = uniqueEmail("reclaim-limit");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await reclaimRequest(address)).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});
