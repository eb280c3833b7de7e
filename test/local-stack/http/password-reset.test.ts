import { RESET_THROTTLE, requestPasswordReset } from "../../../lib/password-reset";
import { api, signupOwner, uniqueEmail, verifyAddress } from "../../support/api";
import { CLAIMABLE_ADMIN_EMAILS, TEST_PASSWORD } from "../../support/constants";
import { expireEmailLink } from "../../support/email-links";
import { awayFromWindowEdge, freshIp } from "../../support/spam-helpers";
import { emailsTo } from "../pipeline/support/emails";

/** A forgotten password is not a lost account (docs/accounts.md, "A forgotten password"). */

const NEW_PASSWORD = "a brand new passphrase";

const ask = (email: string) => api("POST", "/api/v1/auth/password-reset", { body: { email } });
const confirm = (token: string, password = NEW_PASSWORD) =>
  api("POST", "/api/v1/auth/password-reset/confirm", { body: { token, password } });
const login = (email: string, password: string) => api("POST", "/api/v1/auth/login", { body: { email, password } });
const meStatus = async (token: string) => {
  const res = await api("GET", "/api/v1/auth/me", { token });
  return res.status === 200 ? 200 : `${res.status} ${res.body.error.code}`;
};

/** The reset emails sent to `email` so far, waiting until there are `count`. */
async function resetEmails(email: string, count = 1) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = (await emailsTo(email)).filter((e) => e.subject === "Reset your Inlet password");
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`no reset email to ${email} (${found.length} of ${count})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The newest reset link's token sent to `email`. */
async function resetToken(email: string, count = 1): Promise<string> {
  const emails = await resetEmails(email, count);
  const token = /\/reset-password#token=(inlet_eml_[0-9A-Za-z]+)/.exec(emails.at(-1)?.body.text ?? "")?.[1];
  if (!token) throw new Error(`the reset email to ${email} has no link`);
  return token;
}

describe("resetting a forgotten password", () => {
  test("the emailed link, used once, sets the password, ends every session and verifies the address", async () => {
    const owner = await signupOwner("reset");
    const other = await login(owner.email, TEST_PASSWORD);
    const res = await ask(owner.email.toUpperCase());
    expect([res.status, res.body.data]).toEqual([202, { email: owner.email }]);

    const [email] = await resetEmails(owner.email);
    const token = await resetToken(owner.email);
    const link = new URL(/(https?:\/\/\S+#token=\S+)/.exec(email?.body.text ?? "")?.[1] ?? "");
    expect([link.pathname, link.search, link.hash]).toEqual(["/reset-password", "", `#token=${token}`]);
    expect(email?.body.html).toContain(`/reset-password#token=${token}`);
    // The account never verified its address: the reader is warned it may not be theirs.
    expect(email?.body.text).toMatch(/never confirmed this address/);

    // Asking changed nothing: the password and the sessions still work.
    expect((await login(owner.email, TEST_PASSWORD)).status).toBe(200);
    expect(await meStatus(owner.token)).toBe(200);

    const done = await confirm(token);
    expect([done.status, done.body.data]).toEqual([200, { email: owner.email }]);
    expect(await meStatus(owner.token)).toBe("401 SESSION_ENDED");
    expect(await meStatus(other.body.data.token)).toBe("401 SESSION_ENDED");
    const old = await login(owner.email, TEST_PASSWORD);
    expect([old.status, old.body.error.code]).toEqual([401, "INVALID_CREDENTIALS"]);
    const fresh = await login(owner.email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    // The link proved the address.
    expect(fresh.body.data.user.emailVerified).toBe(true);
    expect(await meStatus(fresh.body.data.token)).toBe(200);

    // Single use.
    const again = await confirm(token, "yet another passphrase");
    expect([again.status, again.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    expect((await login(owner.email, NEW_PASSWORD)).status).toBe(200);
  });

  test("a verified account's email carries no squatting warning, and the reset keeps it verified", async () => {
    const owner = await signupOwner("reset-verified");
    await verifyAddress(owner.email, owner.token);
    await ask(owner.email);
    const [email] = await resetEmails(owner.email);
    expect(email?.body.text).not.toMatch(/never confirmed/);
    expect((await confirm(await resetToken(owner.email))).status).toBe(200);
    expect((await login(owner.email, NEW_PASSWORD)).body.data.user.emailVerified).toBe(true);
  });

  test("an expired link is 410 EMAIL_LINK_EXPIRED and changes nothing", async () => {
    const owner = await signupOwner("reset-expired");
    await ask(owner.email);
    const token = await resetToken(owner.email);
    await expireEmailLink(token);
    const res = await confirm(token);
    expect([res.status, res.body.error.code]).toEqual([410, "EMAIL_LINK_EXPIRED"]);
    expect(await meStatus(owner.token)).toBe(200);
    expect((await login(owner.email, TEST_PASSWORD)).status).toBe(200);
  });

  test("a link of another kind, a made-up one, or a short password is refused", async () => {
    const owner = await signupOwner("reset-kinds");
    // The verification link the signup sent is no reset link, nor the other way round.
    const verification = /#token=(inlet_eml_[0-9A-Za-z]+)/.exec((await emailsTo(owner.email))[0]?.body.text ?? "")?.[1] as string;
    const wrongKind = await confirm(verification);
    expect([wrongKind.status, wrongKind.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    await ask(owner.email);
    const token = await resetToken(owner.email);
    const asVerification = await api("POST", "/api/v1/auth/verify-email", { body: { token }, token: owner.token });
    expect([asVerification.status, asVerification.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    for (const bogus of ["inlet_eml_nope", `${token.slice(0, -1)}x`, "x".repeat(200), owner.token]) {
      const res = await confirm(bogus);
      expect([res.status, res.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    }
    const short = await confirm(token, "short");
    expect([short.status, short.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    // Still unused after all that.
    expect((await confirm(token)).status).toBe(200);
  });

  test("a listed admin address squatted: the reset makes admin whoever reads the address, and the squatter keeps nothing", async () => {
    const [, , , , address] = CLAIMABLE_ADMIN_EMAILS;
    const squatter = await api("POST", "/api/v1/auth/signup", {
      body: { email: address, password: TEST_PASSWORD, name: "Squatter", organizationName: "Squat" },
    });
    const squatterSession = squatter.body.data.token as string;
    const me = async (token: string) => (await api("GET", "/api/v1/auth/me", { token })).body.data;
    expect((await me(squatterSession)).platformAdmin).toBe(false);
    // Anyone may ask; only the address's reader gets the link, and is warned whose account it opens.
    await ask(address);
    const [email] = await resetEmails(address);
    expect(email?.body.text).toMatch(/never confirmed this address/);
    expect((await confirm(await resetToken(address))).status).toBe(200);

    // The reset ended every session and replaced the password in the same write that verified
    // the address: the admin account is held by the link's reader alone.
    expect(await meStatus(squatterSession)).toBe("401 SESSION_ENDED");
    expect((await login(address, TEST_PASSWORD)).body.error.code).toBe("INVALID_CREDENTIALS");
    const reader = await login(address, NEW_PASSWORD);
    expect(await me(reader.body.data.token)).toMatchObject({ platformAdmin: true, user: { emailVerified: true } });
  });

  test("a link asked for before the address changed hands (reclaimed) is void", async () => {
    const address = uniqueEmail("reset-reclaimed");
    const squatter = await api("POST", "/api/v1/auth/signup", {
      body: { email: address, password: TEST_PASSWORD, name: "Squatter", organizationName: "Squat" },
    });
    expect(squatter.status).toBe(201);
    await ask(address);
    const stale = await resetToken(address);
    expect((await api("POST", "/api/v1/auth/reclaim-email", { body: { email: address } })).status).toBe(202);
    const reclaimToken = /\/reclaim-email#token=(inlet_eml_[0-9A-Za-z]+)/
      .exec((await emailsTo(address)).map((e) => e.body.text ?? "").join("\n"))
      ?.at(1) as string;
    const owner = await api("POST", "/api/v1/auth/signup", {
      body: { email: address, password: TEST_PASSWORD, name: "Owner", organizationName: "Mine", reclaimToken },
    });
    expect(owner.status).toBe(201);
    const res = await confirm(stale);
    expect([res.status, res.body.error.code]).toEqual([400, "EMAIL_LINK_INVALID"]);
    expect(await meStatus(owner.body.data.token)).toBe(200);
  });
});

describe("no enumeration", () => {
  test("the answer is the same whether or not an account uses the address; each gets one email", async () => {
    const owner = await signupOwner("reset-known");
    const nobody = uniqueEmail("reset-nobody");
    const [known, unknown] = [await ask(owner.email), await ask(nobody)];
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual({ success: true, data: { email: owner.email } });
    expect(unknown.body).toEqual({ success: true, data: { email: nobody } });
    const headerNames = (res: typeof known) => [...res.headers.keys()].filter((n) => n !== "date").sort();
    expect(headerNames(known)).toEqual(headerNames(unknown));

    // Whoever reads the unknown address's mail learns there is no account; nothing to use.
    const [note] = await resetEmails(nobody);
    expect(note?.body.text).toMatch(/no account uses it/);
    expect(note?.body.text).toMatch(/\/sign-up/);
    expect(note?.body.text).not.toMatch(/token/i);
    expect(await resetEmails(owner.email)).toHaveLength(1);
  });
});

describe("limits", () => {
  test("per address: the 6th request in an hour is 429 with Retry-After, for an address with or without an account", async () => {
    await awayFromWindowEdge(RESET_THROTTLE.windowSeconds, 15);
    const owner = await signupOwner("reset-limit");
    const statuses: number[] = [];
    for (let i = 0; i < RESET_THROTTLE.perAddress; i++) statuses.push((await ask(owner.email)).status);
    const over = await ask(owner.email);
    expect([...statuses, over.status]).toEqual([202, 202, 202, 202, 202, 429]);
    expect(over.body.error.code).toBe("RATE_LIMITED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    // The same for an address without an account (each from its own IP here: the test stack's
    // requests all come from one address, whose own limit the suite must not reach).
    const nobody = uniqueEmail("reset-limit-nobody");
    for (let i = 0; i < RESET_THROTTLE.perAddress; i++) await requestPasswordReset({ email: nobody, sourceIp: freshIp() });
    await expect(requestPasswordReset({ email: nobody, sourceIp: freshIp() })).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });

  test("per client IP: past 20 requests in an hour, any address is refused", async () => {
    await awayFromWindowEdge(RESET_THROTTLE.windowSeconds, 15);
    const ip = freshIp();
    for (let i = 0; i < RESET_THROTTLE.perIp; i++) {
      await expect(requestPasswordReset({ email: uniqueEmail("reset-ip"), sourceIp: ip })).resolves.toBeDefined();
    }
    await expect(requestPasswordReset({ email: uniqueEmail("reset-ip"), sourceIp: ip })).rejects.toMatchObject({
      code: "RATE_LIMITED",
      headers: { "retry-after": expect.stringMatching(/^\d+$/) },
    });
    await expect(requestPasswordReset({ email: uniqueEmail("reset-ip"), sourceIp: freshIp() })).resolves.toBeDefined();
  });
});

describe("a reset racing sign-ins with the old password", () => {
  test("no session made with the old password outlives the reset", async () => {
    const owner = await signupOwner("reset-race");
    await ask(owner.email);
    const token = await resetToken(owner.email);
    // Both functions warm (the local gateway loads a handler on its first request), as in a busy deployment.
    expect((await login(owner.email, TEST_PASSWORD)).status).toBe(200);
    expect((await confirm("inlet_eml_warm")).status).toBe(400);
    // Sign-ins start before the reset, beside it and after it, so some finish on each side of it.
    const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const signIns = Array.from({ length: 6 }, (_, i) => delay(i * 10).then(() => login(owner.email, TEST_PASSWORD)));
    const [reset, ...answers] = await Promise.all([delay(20).then(() => confirm(token)), ...signIns]);
    expect(reset.status).toBe(200);
    for (const answer of answers) {
      // Each sign-in either finished before the reset (its session is then ended) or is refused.
      expect([200, 401]).toContain(answer.status);
      if (answer.status === 200) expect(await meStatus(answer.body.data.token)).toBe("401 SESSION_ENDED");
      else expect(answer.body.error.code).toBe("INVALID_CREDENTIALS");
    }
    expect(await meStatus(owner.token)).toBe("401 SESSION_ENDED");
    expect((await login(owner.email, TEST_PASSWORD)).status).toBe(401);
    expect((await login(owner.email, NEW_PASSWORD)).status).toBe(200);
  });
});
