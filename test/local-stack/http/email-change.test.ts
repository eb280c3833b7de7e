import { type Account, api, emailedLinkToken, signupOwner, uniqueEmail } from "../../support/api";
import { CLAIMABLE_ADMIN_EMAILS, TEST_PASSWORD } from "../../support/constants";
import { expireEmailLink } from "../../support/email-links";
import { emailsTo } from "../pipeline/support/emails";

/** An account changes its address; the new one confirms, the old one is told, so a hijack is noticed (docs/accounts.md). */

const verify = (token: string, session: string) => api("POST", "/api/v1/auth/verify-email", { body: { token }, token: session });
const change = (account: Pick<Account, "token">, email: string, password = TEST_PASSWORD) =>
  api("POST", "/api/v1/auth/change-email", { token: account.token, body: { email, password } });
const me = async (token: string) => (await api("GET", "/api/v1/auth/me", { token })).body.data;
const login = (email: string) => api("POST", "/api/v1/auth/login", { body: { email, password: TEST_PASSWORD } });

async function verifiedOwner(label: string): Promise<Account> {
  const owner = await signupOwner(label);
  const res = await verify(await emailedLinkToken(owner.email), owner.token);
  if (res.status !== 200) throw new Error(`verification failed: ${res.text}`);
  return owner;
}

describe("changing the account's address", () => {
  test("the new address confirms from the account's session; then it signs in, the old one is told and freed", async () => {
    const owner = await verifiedOwner("mover");
    const next = uniqueEmail("moved");
    const asked = await change(owner, next.toUpperCase());
    expect([asked.status, asked.body.data]).toEqual([202, { email: next, sent: true }]);
    // Nothing changes before the new address confirms.
    expect((await me(owner.token)).user).toMatchObject({ email: owner.email, emailVerified: true });
    const token = await emailedLinkToken(next);
    const [email] = await emailsTo(next);
    expect(email?.subject).toMatch(/confirm the new email address/i);
    expect(email?.body.text).toContain(
      'The Inlet account "Test mover" in the organization "Org mover" asked to use this address',
    );
    expect(email?.body.text).toContain(`/verify-email#token=${token}`);
    const described = await api("POST", "/api/v1/auth/email-links/describe", { body: { token } });
    expect(described.body.data).toMatchObject({ purpose: "change", email: next, account: { name: "Test mover" } });

    const stranger = await signupOwner("not-the-mover");
    expect((await verify(token, stranger.token)).body.error.code).toBe("EMAIL_LINK_OTHER_ACCOUNT");
    const done = await verify(token, owner.token);
    expect([done.status, done.body.data]).toEqual([200, { email: next, emailVerified: true }]);
    expect((await me(owner.token)).user).toMatchObject({ email: next, emailVerified: true, emailLost: false });
    expect((await login(next)).body.data.user.id).toBe(owner.userId);
    expect((await login(owner.email)).status).toBe(401);
    const team = await api("GET", "/api/v1/team", { token: owner.token });
    expect(team.body.data.members.map((m: { email: string }) => m.email)).toEqual([next]);

    // The old address is told, without the new one; and it is free for someone else.
    const notices = await emailsTo(owner.email);
    const notice = notices.find((e) => /was changed/i.test(e.subject));
    expect(notice?.body.text).toContain(
      'The Inlet account "Test mover" in the organization "Org mover" no longer uses this address',
    );
    expect(notice?.body.text).not.toContain(next);
    const reuse = await api("POST", "/api/v1/auth/signup", {
      body: { email: owner.email, password: TEST_PASSWORD, name: "New", organizationName: "New" },
    });
    expect(reuse.status).toBe(201);
    // Single use.
    expect((await verify(token, owner.token)).status).toBe(400);
  });

  test("refused: a wrong password, the account's own address, an address another account verified; limited to 5 an hour", async () => {
    const owner = await verifiedOwner("refused");
    const other = await verifiedOwner("taken");
    const wrong = await change(owner, uniqueEmail(), "not the password");
    expect([wrong.status, wrong.body.error.code]).toEqual([403, "CURRENT_PASSWORD_INVALID"]);
    const same = await change(owner, owner.email);
    expect([same.status, same.body.error.code]).toEqual([409, "CONFLICT"]);
    const taken = await change(owner, other.email);
    expect([taken.status, taken.body.error.code]).toEqual([409, "EMAIL_TAKEN"]);
    const invalid = await change(owner, "not-an-address");
    expect([invalid.status, invalid.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    const key = await api("POST", "/api/v1/auth/change-email", { body: { email: uniqueEmail(), password: TEST_PASSWORD } });
    expect(key.status).toBe(401);
    // Five attempts an hour per account: the three refused above count, and two more are sent.
    expect([(await change(owner, uniqueEmail())).status, (await change(owner, uniqueEmail())).status]).toEqual([202, 202]);
    const limited = await change(owner, uniqueEmail());
    expect([limited.status, limited.headers.get("retry-after") !== null]).toEqual([429, true]);
    expect((await me(owner.token)).user.email).toBe(owner.email);
  });

  test("an expired link is 410 EMAIL_LINK_EXPIRED and moves nothing; a new request's link works", async () => {
    const owner = await verifiedOwner("change-expired");
    const next = uniqueEmail("too-late");
    expect((await change(owner, next)).status).toBe(202);
    const token = await emailedLinkToken(next);
    await expireEmailLink(token);
    const described = await api("POST", "/api/v1/auth/email-links/describe", { body: { token } });
    const late = await verify(token, owner.token);
    for (const res of [described, late]) expect([res.status, res.body.error.code]).toEqual([410, "EMAIL_LINK_EXPIRED"]);
    expect((await me(owner.token)).user).toMatchObject({ email: owner.email, emailVerified: true });
    expect((await login(owner.email)).body.data.user.id).toBe(owner.userId);
    expect((await login(next)).status).toBe(401);
    expect((await emailsTo(owner.email)).filter((e) => /was changed/i.test(e.subject))).toEqual([]);

    expect((await change(owner, next)).status).toBe(202);
    expect((await verify(await emailedLinkToken(next, 2), owner.token)).status).toBe(200);
    expect((await me(owner.token)).user.email).toBe(next);
  });

  test("a link is void once the account changed its address another way since", async () => {
    const owner = await verifiedOwner("twice");
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    expect((await change(owner, first)).status).toBe(202);
    expect((await change(owner, second)).status).toBe(202);
    const firstToken = await emailedLinkToken(first);
    expect((await verify(await emailedLinkToken(second), owner.token)).status).toBe(200);
    const stale = await verify(firstToken, owner.token);
    expect([stale.status, stale.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    expect((await me(owner.token)).user.email).toBe(second);
  });

  test("an account whose address was reclaimed moves to one of its own; the reclaimed address hears nothing of it", async () => {
    const address = uniqueEmail("lost");
    const squat = await api("POST", "/api/v1/auth/signup", {
      body: { email: address, password: TEST_PASSWORD, name: "Typo", organizationName: "Typo Org" },
    });
    const lost = { token: squat.body.data.token as string };
    const mine = await api("POST", "/api/v1/auth/signup", {
      body: {
        email: address,
        password: TEST_PASSWORD,
        name: "Owner",
        organizationName: "Mine",
        reclaimToken: await emailedLinkToken(address),
      },
    });
    expect(mine.status).toBe(201);
    expect((await me(lost.token)).user.emailLost).toBe(true);

    const own = uniqueEmail("own");
    expect((await change(lost, own)).status).toBe(202);
    expect((await verify(await emailedLinkToken(own), lost.token)).status).toBe(200);
    expect((await me(lost.token)).user).toMatchObject({ email: own, emailVerified: true, emailLost: false });
    expect((await login(own)).status).toBe(200);
    // The reclaimed address belongs to its owner's account still, and got no notice.
    expect((await login(address)).body.data.user.id).toBe(mine.body.data.user.id);
    expect((await emailsTo(address)).filter((e) => /was changed/i.test(e.subject))).toEqual([]);
  });

  test("an account whose address was reclaimed, with no session open, still signs in with its own password, and only to move away", async () => {
    const address = uniqueEmail("stranded");
    const squat = await api("POST", "/api/v1/auth/signup", {
      body: { email: address, password: "the squatter's own passphrase", name: "Typo", organizationName: "Typo Org" },
    });
    const mine = await api("POST", "/api/v1/auth/signup", {
      body: {
        email: address,
        password: TEST_PASSWORD,
        name: "Owner",
        organizationName: "Mine",
        reclaimToken: await emailedLinkToken(address),
      },
    });
    expect(mine.status).toBe(201);
    await api("POST", "/api/v1/auth/logout", { token: squat.body.data.token });
    const signIn = (password: string) => api("POST", "/api/v1/auth/login", { body: { email: address, password } });

    // Each password opens its own account; any other opens none.
    const owner = await signIn(TEST_PASSWORD);
    expect([owner.status, owner.body.data.user.id]).toEqual([200, mine.body.data.user.id]);
    const lost = await signIn("the squatter's own passphrase");
    expect([lost.status, lost.body.data.user.id]).toEqual([200, squat.body.data.user.id]);
    expect((await me(lost.body.data.token)).user).toMatchObject({ email: address, emailLost: true, emailVerified: false });
    expect((await signIn("neither of them")).body.error.code).toBe("INVALID_CREDENTIALS");

    // Once it moved to an address of its own, the reclaimed address no longer opens it.
    const own = uniqueEmail("own-at-last");
    expect((await change({ token: lost.body.data.token }, own, "the squatter's own passphrase")).status).toBe(202);
    expect((await verify(await emailedLinkToken(own), lost.body.data.token)).status).toBe(200);
    expect((await signIn("the squatter's own passphrase")).body.error.code).toBe("INVALID_CREDENTIALS");
    const moved = await api("POST", "/api/v1/auth/login", { body: { email: own, password: "the squatter's own passphrase" } });
    expect(moved.status).toBe(200);
    expect((await me(moved.body.data.token)).user).toMatchObject({ email: own, emailLost: false, emailVerified: true });
  });

  test("an address an unverified account holds can be moved to: the link proves it, and that account is told", async () => {
    const owner = await verifiedOwner("taker");
    const held = uniqueEmail("held");
    const holder = await api("POST", "/api/v1/auth/signup", {
      body: { email: held, password: TEST_PASSWORD, name: "Holder", organizationName: "Holder Org" },
    });
    expect((await change(owner, held)).status).toBe(202);
    expect((await verify(await emailedLinkToken(held, 2), owner.token)).status).toBe(200);
    expect((await me(owner.token)).user).toMatchObject({ email: held, emailVerified: true });
    expect((await me(holder.body.data.token)).user).toMatchObject({ email: held, emailLost: true });
  });

  test("moving to a listed platform-admin address makes the account admin once confirmed from its session", async () => {
    const [, , , address] = CLAIMABLE_ADMIN_EMAILS;
    const owner = await verifiedOwner("to-admin");
    expect((await change(owner, address)).status).toBe(202);
    expect((await me(owner.token)).platformAdmin).toBe(false);
    expect((await verify(await emailedLinkToken(address), owner.token)).status).toBe(200);
    expect(await me(owner.token)).toMatchObject({ platformAdmin: true, user: { email: address } });
  });
});
