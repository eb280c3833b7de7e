import { randomUUID } from "node:crypto";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { CAPTCHA_TOKEN_FIELDS, takeCaptchaTokens } from "../../../lib/spam/captcha";
import { fingerprint } from "../../../lib/spam/evidence";
import { keys } from "../../../lib/store/keys";
import { type Account, api, signupOwner } from "../../support/api";
import { captchaToken, receivedFor, SECRET_PREFIX, TEST_TIMEOUT_MS } from "../../support/fake-captcha";
import {
  BROWSER,
  freshIp,
  type Hook,
  newHook,
  newSite,
  signalNames,
  storedSubmission,
  submit,
  submitAndRead,
} from "../../support/spam-helpers";
import { bookkeepingBarrier } from "../pipeline/support/barrier";

/**
 * Per-site captcha (spec 4.2 rule 4, 5.3 rule 3; docs/spam.md) against the fake siteverify
 * server of test/support/fake-captcha.ts, whose answers follow from the token.
 */
type Kind = "score" | "challenge";
const secret = (label: string) => `${SECRET_PREFIX}${label}-${randomUUID()}`;
const unique = () => ({ email: `captcha-${randomUUID()}@example.com`, message: "Hello" });

let owner: Account;
const hooks = {} as Record<Kind, Hook>;
const domainHooks = {} as Record<Kind, Hook>;
const secrets = {} as Record<Kind, string>;
let strictScore: Hook;
let defaultScore: Hook;
let wrongSecret: Hook;
let noCaptcha: Hook;

beforeAll(async () => {
  owner = await signupOwner("captcha");
  const setup = async (captcha: Record<string, unknown>, domain?: string) =>
    newHook(owner, await newSite(owner, { captcha, ...(domain ? { domain } : {}) }));
  secrets.score = secret("score");
  secrets.challenge = secret("challenge");
  [hooks.score, hooks.challenge, domainHooks.score, domainHooks.challenge, strictScore, defaultScore, wrongSecret, noCaptcha] =
    await Promise.all([
      setup({ provider: "score", siteKey: "score-site-key", secretKey: secrets.score, minScore: 0.5 }),
      setup({ provider: "challenge", siteKey: "challenge-site-key", secretKey: secrets.challenge }),
      setup({ provider: "score", siteKey: "k", secretKey: secret("score-domain") }, "example.com"),
      setup({ provider: "challenge", siteKey: "k", secretKey: secret("challenge-domain") }, "example.com"),
      setup({ provider: "score", siteKey: "k", secretKey: secret("strict"), minScore: 0.8 }),
      setup({ provider: "score", siteKey: "k", secretKey: secret("default") }),
      setup({ provider: "challenge", siteKey: "k", secretKey: "not-a-test-secret" }),
      newHook(owner, await newSite(owner)),
    ]);
});

const field = (kind: Kind) => CAPTCHA_TOKEN_FIELDS[kind][0];

/** The webhook's count once every record written so far is bookkept (the count follows the table stream). */
async function submissionCount(hook: Hook): Promise<number> {
  await bookkeepingBarrier();
  const res = await api("GET", `/api/v1/sites/${hook.siteId}/webhooks/${hook.id}`, { token: owner.token });
  return res.body.data.submissionCount as number;
}

/** Expects an error answer with `code` and that nothing was stored for the webhook. */
async function expectRefused(hook: Hook, fields: Record<string, string>, status: number, code: string, ip = freshIp()) {
  const before = await submissionCount(hook);
  const started = Date.now();
  const res = await submit(hook, ip, { ...unique(), ...fields });
  const elapsedMs = Date.now() - started;
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ success: false, error: expect.objectContaining({ code, message: expect.any(String) }) });
  expect(await submissionCount(hook)).toBe(before);
  return { ...res, elapsedMs };
}

describe.each(["score", "challenge"] as const)("a site with a %s captcha provider", (kind) => {
  test.each(CAPTCHA_TOKEN_FIELDS[kind])("a passing token in %s is verified, and the token is never stored", async (name) => {
    const ip = freshIp();
    const token = captchaToken("pass");
    const res = await submit(
      hooks[kind],
      ip,
      { ...unique(), [name]: token },
      { headers: { ...BROWSER, "x-forwarded-for": "203.0.113.50" } },
    );
    expect(res.status).toBe(200);
    const item = await storedSubmission(res.body.submissionId);
    expect(item?.data).not.toHaveProperty(name);
    expect(res.body.fieldsMapped).not.toContain(name);
    expect(JSON.stringify(item)).not.toContain(token);
    expect(item?.isSpam).toBe(false);

    // What the provider received: a form-encoded POST, nothing in the URL, the real client IP.
    const received = await receivedFor(token);
    expect(received).toEqual({
      path: kind === "score" ? "/recaptcha/api/siteverify" : "/hcaptcha/siteverify",
      method: "POST",
      contentType: "application/x-www-form-urlencoded",
      query: "",
      params: expect.objectContaining({ secret: secrets[kind], response: token, remoteip: ip }),
    });
  });

  test("a token in a JSON body is verified and not stored", async () => {
    const token = captchaToken("pass");
    const res = await submit(hooks[kind], freshIp(), {}, { json: { ...unique(), [field(kind)]: token } });
    expect(res.status).toBe(200);
    expect(JSON.stringify(await storedSubmission(res.body.submissionId))).not.toContain(token);
  });

  test("no token: 400 CAPTCHA_REQUIRED, nothing stored", async () => {
    const res = await expectRefused(hooks[kind], {}, 400, "CAPTCHA_REQUIRED");
    for (const name of CAPTCHA_TOKEN_FIELDS[kind]) expect(res.body.error.message).toContain(name);
  });

  test("an empty token: 400 CAPTCHA_REQUIRED", async () => {
    await expectRefused(hooks[kind], { [field(kind)]: "  " }, 400, "CAPTCHA_REQUIRED");
  });

  test("a token only in the other provider kind's field: 400 CAPTCHA_REQUIRED (and never sent to a provider)", async () => {
    const other = kind === "score" ? "h-captcha-response" : "g-recaptcha-response";
    const token = captchaToken("pass");
    await expectRefused(hooks[kind], { [other]: token }, 400, "CAPTCHA_REQUIRED");
    expect(await receivedFor(token)).toBeUndefined();
  });

  test("a failed token: 403 CAPTCHA_FAILED, nothing stored", async () => {
    const res = await expectRefused(hooks[kind], { [field(kind)]: captchaToken("fail") }, 403, "CAPTCHA_FAILED");
    expect(res.body.error.message).toContain("invalid-input-response");
  });

  test("a replayed token: 403 CAPTCHA_FAILED (timeout-or-duplicate)", async () => {
    const token = captchaToken("pass");
    expect((await submit(hooks[kind], freshIp(), { ...unique(), [field(kind)]: token })).status).toBe(200);
    const res = await expectRefused(hooks[kind], { [field(kind)]: token }, 403, "CAPTCHA_FAILED");
    expect(res.body.error.message).toContain("timeout-or-duplicate");
  });

  test("the wrong hostname when the site has a domain: 403 CAPTCHA_FAILED", async () => {
    await expectRefused(domainHooks[kind], { [field(kind)]: captchaToken("host", "evil.example") }, 403, "CAPTCHA_FAILED");
    // A look-alike that merely ends with the domain is another host.
    await expectRefused(domainHooks[kind], { [field(kind)]: captchaToken("host", "notexample.com") }, 403, "CAPTCHA_FAILED");
  });

  test.each(["example.com", "forms.example.com", "EXAMPLE.COM"])("the site's domain or a subdomain (%s) passes", async (host) => {
    const res = await submit(domainHooks[kind], freshIp(), { ...unique(), [field(kind)]: captchaToken("host", host) });
    expect(res.status).toBe(200);
  });

  test("the hostname is not checked when the site has no domain", async () => {
    const res = await submit(hooks[kind], freshIp(), { ...unique(), [field(kind)]: captchaToken("host", "evil.example") });
    expect(res.status).toBe(200);
  });

  test("a provider timeout: 503 CAPTCHA_UNAVAILABLE within the timeout, Retry-After, nothing stored", async () => {
    const res = await expectRefused(hooks[kind], { [field(kind)]: captchaToken("slow") }, 503, "CAPTCHA_UNAVAILABLE");
    expect(res.elapsedMs).toBeLessThan(TEST_TIMEOUT_MS + 1500);
    expect(res.headers["retry-after"]).toBe("5");
  });

  test("a provider that stalls after its headers: 503 CAPTCHA_UNAVAILABLE", async () => {
    await expectRefused(hooks[kind], { [field(kind)]: captchaToken("slowbody") }, 503, "CAPTCHA_UNAVAILABLE");
  });

  test.each(["http500", "garbage", "nosuccess"] as const)("a provider answering %s: 503 CAPTCHA_UNAVAILABLE", async (outcome) => {
    const res = await expectRefused(hooks[kind], { [field(kind)]: captchaToken(outcome) }, 503, "CAPTCHA_UNAVAILABLE");
    expect(res.text).not.toMatch(/html|Internal Server Error|siteverify|127\.0\.0\.1/i);
  });

  test("a retry after a provider timeout is not flagged as a duplicate", async () => {
    const ip = freshIp();
    const data = unique();
    expect((await submit(hooks[kind], ip, { ...data, [field(kind)]: captchaToken("slow") })).status).toBe(503);
    const marker = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.duplicate(fingerprint(ip, data)), ConsistentRead: true }),
    );
    expect(marker.Item).toBeUndefined();
    const retry = await submitAndRead(hooks[kind], ip, { ...data, [field(kind)]: captchaToken("pass") });
    expect(retry.spam.signals).toEqual([]);
    // Once one is stored, the same data again is a duplicate (the marker did its job).
    const again = await submitAndRead(hooks[kind], ip, { ...data, [field(kind)]: captchaToken("pass") });
    expect(signalNames(again)).toEqual(["duplicate"]);
  });

  test("a retry after a failed token is not flagged as a duplicate", async () => {
    const ip = freshIp();
    const data = unique();
    expect((await submit(hooks[kind], ip, { ...data, [field(kind)]: captchaToken("fail") })).status).toBe(403);
    expect((await submitAndRead(hooks[kind], ip, { ...data, [field(kind)]: captchaToken("pass") })).spam.signals).toEqual([]);
  });

  test("a repeat with the same Idempotency-Key gets the first result without a token (it stores nothing)", async () => {
    const ip = freshIp();
    const data = unique();
    const headers = { ...BROWSER, "idempotency-key": randomUUID() };
    const first = await submit(hooks[kind], ip, { ...data, [field(kind)]: captchaToken("pass") }, { headers });
    expect(first.status).toBe(200);
    const count = await submissionCount(hooks[kind]);
    const repeat = await submit(hooks[kind], ip, data, { headers });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first.body);
    expect(await submissionCount(hooks[kind])).toBe(count);
  });

  test("advertising-platform and automation webhooks of the site skip captcha", async () => {
    const siteId = hooks[kind].siteId;
    const ads = await newHook(owner, siteId, "partner_ads");
    const lead = {
      lead_id: `LD-${randomUUID()}`,
      google_key: ads.secretKey,
      user_column_data: [{ column_id: "EMAIL", string_value: `lead-${randomUUID()}@example.com` }],
    };
    const adsRes = await submit(ads, freshIp(), {}, { headers: {}, json: lead });
    expect(adsRes.status).toBe(200);
    expect((await storedSubmission(adsRes.body.submissionId))?.isSpam).toBe(false);

    const automation = await newHook(owner, siteId, "partner_automation");
    expect((await submit(automation, freshIp(), unique(), { headers: {} })).status).toBe(200);
  });
});

describe("score thresholds", () => {
  test.each([
    [0.3, 403],
    [0.49, 403],
    [0.5, 200],
    [0.9, 200],
  ])("a score of %d against the minimum 0.5: %i", async (score, status) => {
    const res = await submit(hooks.score, freshIp(), { ...unique(), "g-recaptcha-response": captchaToken("score", score) });
    expect(res.status).toBe(status);
    if (status === 403) {
      expect(res.body.error.code).toBe("CAPTCHA_FAILED");
      expect(res.body.error.message).toContain("score below 0.5");
    }
  });

  test("a site's own minimum (0.8) applies", async () => {
    expect(
      (await submit(strictScore, freshIp(), { ...unique(), "score-captcha-response": captchaToken("score", 0.7) })).status,
    ).toBe(403);
    expect(
      (await submit(strictScore, freshIp(), { ...unique(), "score-captcha-response": captchaToken("score", 0.8) })).status,
    ).toBe(200);
  });

  test("the minimum defaults to 0.5 and is shown", async () => {
    const site = await api("GET", `/api/v1/sites/${defaultScore.siteId}`, { token: owner.token });
    expect(site.body.data.site.captcha.minScore).toBe(0.5);
    expect(
      (await submit(defaultScore, freshIp(), { ...unique(), "score-captcha-response": captchaToken("score", 0.4) })).status,
    ).toBe(403);
    expect(
      (await submit(defaultScore, freshIp(), { ...unique(), "score-captcha-response": captchaToken("score", 0.6) })).status,
    ).toBe(200);
  });

  test("the challenge provider has no score to check", async () => {
    const res = await submit(hooks.challenge, freshIp(), { ...unique(), "h-captcha-response": captchaToken("score", 0.1) });
    expect(res.status).toBe(200);
  });
});

describe("captcha settings", () => {
  test("a wrong secret key is refused by the provider: 403 CAPTCHA_FAILED", async () => {
    const res = await expectRefused(wrongSecret, { "cf-turnstile-response": captchaToken("pass") }, 403, "CAPTCHA_FAILED");
    expect(res.body.error.message).toContain("invalid-input-secret");
  });

  test("a site without a provider needs no token, and token fields sent anyway are not stored", async () => {
    const plain = await submitAndRead(noCaptcha, freshIp(), unique());
    expect(plain.isSpam).toBe(false);
    const all = Object.fromEntries(
      [...CAPTCHA_TOKEN_FIELDS.score, ...CAPTCHA_TOKEN_FIELDS.challenge].map((f) => [f, `stray-${f}`]),
    );
    const item = await submitAndRead(noCaptcha, freshIp(), { ...unique(), ...all });
    for (const name of Object.keys(all)) expect(item.data).not.toHaveProperty(name);
    expect(JSON.stringify(item)).not.toContain("stray-");
  });

  test("the captcha secret never appears in any API response; only hasSecretKey", async () => {
    const siteId = await newSite(owner);
    const key = secret("write-only");
    const put = await api("PUT", `/api/v1/sites/${siteId}`, {
      token: owner.token,
      body: { captcha: { provider: "challenge", siteKey: "public-site-key", secretKey: key } },
    });
    expect(put.status).toBe(200);
    expect(put.body.data.site.captcha).toEqual({ provider: "challenge", siteKey: "public-site-key", hasSecretKey: true });
    const get = await api("GET", `/api/v1/sites/${siteId}`, { token: owner.token });
    const list = await api("GET", "/api/v1/sites?limit=100", { token: owner.token });
    // Renaming the site (captcha untouched) and re-saving captcha without the secret keep it.
    const rename = await api("PUT", `/api/v1/sites/${siteId}`, { token: owner.token, body: { name: "Renamed" } });
    const keep = await api("PUT", `/api/v1/sites/${siteId}`, {
      token: owner.token,
      body: { captcha: { provider: "score", siteKey: "public-site-key", minScore: 0.6 } },
    });
    for (const res of [put, get, list, rename, keep]) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(key);
      expect(res.text).not.toContain(key.slice(SECRET_PREFIX.length, SECRET_PREFIX.length + 16));
      expect(res.text).not.toMatch(/"secretKey"/);
    }
    expect(keep.body.data.site.captcha).toEqual({
      provider: "score",
      siteKey: "public-site-key",
      minScore: 0.6,
      hasSecretKey: true,
    });
    // The kept secret still verifies.
    const hook = await newHook(owner, siteId);
    const token = captchaToken("pass");
    expect((await submit(hook, freshIp(), { ...unique(), "g-recaptcha-response": token })).status).toBe(200);
    expect((await receivedFor(token))?.params.secret).toBe(key);
  });

  test("turning captcha off (captcha: null) stops requiring a token", async () => {
    const siteId = await newSite(owner, { captcha: { provider: "score", siteKey: "k", secretKey: secret("off") } });
    const hook = await newHook(owner, siteId);
    await expectRefused(hook, {}, 400, "CAPTCHA_REQUIRED");
    const off = await api("PUT", `/api/v1/sites/${siteId}`, { token: owner.token, body: { captcha: null } });
    expect(off.body.data.site.captcha).toBeNull();
    expect((await submit(hook, freshIp(), unique())).status).toBe(200);
  });

  test("a captcha without any secret stored is 400", async () => {
    const siteId = await newSite(owner);
    const res = await api("PUT", `/api/v1/sites/${siteId}`, {
      token: owner.token,
      body: { captcha: { provider: "score", siteKey: "k" } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
  });
});

describe("token fields (in-process)", () => {
  test("every accepted field is taken out of the data; the first value of a list is the token", () => {
    const data: Record<string, string | string[]> = {
      email: "ada@example.com",
      "score-captcha-response": "s",
      "g-recaptcha-response": ["g1", "g2"],
      "challenge-captcha-response": "c",
      "h-captcha-response": "h",
      "cf-turnstile-response": "t",
    };
    expect(takeCaptchaTokens(data)).toEqual({
      "score-captcha-response": "s",
      "g-recaptcha-response": "g1",
      "challenge-captcha-response": "c",
      "h-captcha-response": "h",
      "cf-turnstile-response": "t",
    });
    expect(data).toEqual({ email: "ada@example.com" });
  });

  test("the accepted fields per provider kind", () => {
    expect(CAPTCHA_TOKEN_FIELDS).toEqual({
      score: ["score-captcha-response", "g-recaptcha-response"],
      challenge: ["challenge-captcha-response", "h-captcha-response", "cf-turnstile-response"],
    });
  });
});

describe("the fake provider refuses what a real one must never be sent (so the passes above prove the request)", () => {
  const post = (url: string, init: RequestInit = {}) =>
    fetch(url, { method: "POST", ...init }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, unknown>,
    }));
  const form = (params: Record<string, string>) => ({
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params).toString(),
  });
  const good = () => ({ secret: `${SECRET_PREFIX}x`, response: captchaToken("pass"), remoteip: "192.0.2.1" });
  const url = () => process.env.CAPTCHA_SCORE_VERIFY_URL as string;

  test.each([
    ["the secret in the query string", () => post(`${url()}?secret=${SECRET_PREFIX}x`, form(good())), "secret-or-token-in-url"],
    [
      "a JSON body",
      () => post(url(), { headers: { "content-type": "application/json" }, body: JSON.stringify(good()) }),
      "not-form-encoded",
    ],
    ["no secret", () => post(url(), form({ ...good(), secret: "" })), "missing-input-secret"],
    ["no remoteip", () => post(url(), form({ ...good(), remoteip: "" })), "missing-remoteip"],
    ["another secret", () => post(url(), form({ ...good(), secret: "live-secret" })), "invalid-input-secret"],
  ])("%s", async (_label, send, code) => {
    expect(await send()).toEqual({ status: 200, body: { success: false, "error-codes": [code] } });
  });

  test("a well-formed request passes once, then is a replay", async () => {
    const params = good();
    expect((await post(url(), form(params))).body).toEqual(expect.objectContaining({ success: true, score: 0.9 }));
    expect((await post(url(), form(params))).body).toEqual({ success: false, "error-codes": ["timeout-or-duplicate"] });
  });
});
