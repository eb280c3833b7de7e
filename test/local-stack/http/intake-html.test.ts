import { createHash } from "node:crypto";
import { type Account, type ApiResponse, api, signupOwner } from "../../support/api";
import { captchaToken, SECRET_PREFIX } from "../../support/fake-captcha";
import {
  accepted,
  adsLead,
  CHROMIUM_HEADERS,
  expectStatus,
  type IntakeTarget,
  intakeTarget,
  pageReference,
  postIntake,
  submissionOnPage,
  updateSite,
  updateWebhook,
} from "../../support/intake";

/**
 * The intake route's answers to a browser navigation (docs/intake.md, "Browser answers"): a
 * plain HTML form posted without `_redirect` gets a page, with the JSON answer's status; every
 * other client gets the JSON exactly as before.
 */

/** What Chromium sends when a person presses a form's Send button (a navigation). */
const NAVIGATION: Record<string, string> = { ...CHROMIUM_HEADERS };
/** Firefox's navigation Accept; Safari before 16.4 sends no Sec-Fetch-* headers at all. */
const NO_FETCH_METADATA: Record<string, string> = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  referer: "https://www.example.com/contact",
  "user-agent":
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Safari/605.1.15",
};

const CSP =
  /^default-src 'none'; style-src 'sha256-([A-Za-z0-9+/]+=*)'; base-uri 'none'; form-action 'none'; frame-ancestors (.+)$/;

/**
 * A page answer: its status, headers, no script, a CSP whose hash is its own style sheet's, and
 * whose `frame-ancestors` is `framers` (anyone, for a site without a domain).
 */
function expectPage(res: ApiResponse, status: number, framers = "*"): string {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${res.text.slice(0, 300)}`);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("vary")).toBe("Accept, Sec-Fetch-Mode");
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  const csp = CSP.exec(res.headers.get("content-security-policy") ?? "");
  if (!csp) throw new Error(`unexpected CSP ${res.headers.get("content-security-policy")}`);
  expect(csp[2]).toBe(framers);
  const styles = [...res.text.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1] as string);
  expect(styles).toHaveLength(1);
  expect(
    createHash("sha256")
      .update(styles[0] as string)
      .digest("base64"),
  ).toBe(csp[1]);
  expect(styles[0]).toContain("prefers-color-scheme:dark");
  expect(res.text.startsWith("<!doctype html>")).toBe(true);
  expect(res.text).not.toMatch(/<script|javascript:|\son[a-z]+=/i);
  expect(res.text).not.toContain('"success"');
  return res.text;
}

/** The JSON answer, unchanged: its content type, and no page. */
function expectJson(res: ApiResponse, status: number, code?: string): void {
  expectStatus(res, status, code);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(res.headers.get("content-security-policy")).toBeNull();
  expect(res.body.success).toBe(status === 200);
}

/** The href of the page's one link, as the browser reads the attribute (entities decoded). */
function backHref(html: string): string | undefined {
  const links = [...html.matchAll(/<a href="([^"]*)" rel="noreferrer">/g)];
  expect(links.length).toBeLessThanOrEqual(1);
  const raw = links[0]?.[1];
  return raw
    ?.replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** Every request of this file carries exactly its headers, as a browser or curl would send them. */
const send = (webhook: Parameters<typeof postIntake>[0], options: Parameters<typeof postIntake>[1] = {}) =>
  postIntake(webhook, { ...options, exactHeaders: true });

const refusalOf = (html: string) => /<h1>Your submission was not sent<\/h1><p>([^<]*)<\/p>/.exec(html)?.[1];

let t: IntakeTarget;
beforeAll(async () => {
  t = await intakeTarget("html-pages", { name: "Contact page" });
});

const contact = (extra: Record<string, string> = {}) => ({ name: "Ada", email: "ada@example.com", ...extra });

describe("a browser navigation gets a page", () => {
  test("success: thanks, the stored submission's reference, and a link back to the form's page", async () => {
    const res = await send(t.webhook, { form: contact(), headers: NAVIGATION });
    const html = expectPage(res, 200);
    expect(html).toContain("<h1>Thank you!</h1>");
    const stored = await submissionOnPage(res, t.webhook.id);
    expect(stored.data).toEqual(contact());
    expect(html).toContain(`Your reference: <strong>${stored.referenceId}</strong>`);
    expect(backHref(html)).toBe("https://www.example.com/contact");
    expect(html).toContain(">Back to www.example.com</a>");
  });

  test("without Sec-Fetch-Mode (Safari before 16.4, Firefox's Accept): a page too", async () => {
    expectPage(await send(t.webhook, { form: contact(), headers: NO_FETCH_METADATA }), 200);
  });

  test.each([
    ["application/json;q=0.5, text/html", true],
    ["text/html, application/json", true],
    ["text/*", true],
    ["text/html;q=0.5, application/json", false],
    ["application/json, text/html", false],
    ["text/html;q=0, */*", false],
    ["*/*", false],
  ])("Accept: %s, Sec-Fetch-Mode: navigate → a page: %s (q-values honoured; a tie is JSON)", async (accept, page) => {
    const res = await send(t.webhook, { form: contact(), headers: { ...NAVIGATION, accept } });
    if (page) expectPage(res, 200);
    else expectJson(res, 200);
  });

  test("_redirect beats the page: 303 with an empty body", async () => {
    const res = await send(t.webhook, {
      form: contact({ _redirect: "https://www.example.com/thanks" }),
      headers: NAVIGATION,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^https:\/\/www\.example\.com\/thanks\?ref=[A-Z0-9]+-\d+$/);
    expect(res.text).toBe("");
  });

  test("a filled honeypot looks like success, as the JSON does: the thank-you page, stored flagged", async () => {
    const res = await send(t.webhook, { form: contact({ _gotcha: "bot was here" }), headers: NAVIGATION });
    const html = expectPage(res, 200);
    expect(html).toContain("<h1>Thank you!</h1>");
    const stored = await submissionOnPage(res, t.webhook.id);
    expect(stored.spam.isSpam).toBe(true);
  });
});

describe("hostile input on the page", () => {
  test("field values are never echoed; a hostile charset in the message is escaped", async () => {
    const hostile = `<script>alert(1)</script>"'><img src=x onerror=alert(2)>`;
    const ok = await send(t.webhook, { form: contact({ message: hostile }), headers: NAVIGATION });
    expect(expectPage(ok, 200)).not.toContain("alert");
    const refused = await send(t.webhook, {
      raw: "name=Ada",
      contentType: "application/x-www-form-urlencoded; charset=<b>x</b>'\"",
      headers: NAVIGATION,
    });
    const html = expectPage(refused, 415);
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;b&gt;x&lt;/b&gt;&#39;");
  });

  test.each([
    // Quotes and angle brackets stay inside the attribute (the URL parser encodes some, escaping the rest).
    ["https://www.example.com/c?q=\"><script>alert(1)</script>&n='x' onmouseover='y'#'\"><b>", "https://www.example.com"],
    ["http://localhost:8080/form.html?a=1&b=2", "http://localhost:8080"],
  ])("Referer %s: linked, escaped", async (referer, origin) => {
    const html = expectPage(await send(t.webhook, { form: contact(), headers: { ...NAVIGATION, referer, origin } }), 200);
    expect(backHref(html)).toBe(new URL(referer).href);
    expect(html).not.toMatch(/<b>|<script/);
  });

  test.each([
    ["javascript:", "javascript:alert(document.domain)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["with credentials", "https://user:pass@www.example.com/contact"],
    ["not a URL", "not a url"],
    ["of 3,000 characters", `https://www.example.com/${"a".repeat(3000)}`],
  ])("a Referer %s is no link; the Origin is, when it is an http(s) origin", async (_label, referer) => {
    const withOrigin = expectPage(await send(t.webhook, { form: contact(), headers: { ...NAVIGATION, referer } }), 200);
    expect(backHref(withOrigin)).toBe("https://www.example.com/");
    const opaque = expectPage(
      await send(t.webhook, { form: contact(), headers: { ...NAVIGATION, referer, origin: "null" } }),
      200,
    );
    expect(backHref(opaque)).toBeUndefined();
    expect(opaque).not.toContain("<a ");
  });
});

describe("every other client keeps the JSON", () => {
  const ads = (extra: Record<string, string> = {}) => ({ "content-type": "application/json", ...extra });
  test.each([
    [
      "fetch() from a page (Sec-Fetch-Mode: cors, whatever its Accept)",
      { ...NAVIGATION, "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" },
    ],
    ["fetch() in no-cors mode", { ...NAVIGATION, "sec-fetch-mode": "no-cors" }],
    ["curl (Accept: */*)", { accept: "*/*", "user-agent": "curl/8.5.0" }],
    ["an automation platform (Accept: application/json)", { accept: "application/json", "user-agent": "Zapier" }],
    ["no Accept at all", { "user-agent": "Go-http-client/2.0" }],
  ])("%s", async (_label, headers) => {
    const res = await send(t.webhook, { form: contact(), headers });
    expectJson(res, 200);
    expect(Object.keys(res.body)).toEqual(["success", "submissionId", "referenceId", "fieldsMapped"]);
    expect(res.headers.get("vary")).toBe("Accept, Sec-Fetch-Mode");
    expectJson(await send("wh_0000000000000000000000", { form: contact(), key: "x", headers }), 404, "NOT_FOUND");
  });

  test("the advertising platform's lead webhook (JSON, Accept */*): the spec's JSON", async () => {
    // A lead without its key (the platform's "send test data" before setup): the JSON refusal.
    const res = await send(t.webhook, { json: adsLead(), key: null, headers: ads({ accept: "*/*" }) });
    expectJson(res, 401, "WEBHOOK_KEY_REQUIRED");
    const lead = await send(t.webhook, { json: adsLead({ google_key: t.webhook.secretKey }), key: null, headers: ads() });
    expect(accepted(lead).referenceId).toMatch(/^[A-Z0-9]+-\d+$/);
    expect(lead.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });
});

describe("each refusal, in words, with its status", () => {
  let owner: Account;
  beforeAll(async () => {
    owner = await signupOwner("html-refusals");
  });
  const fresh = async (label: string) => intakeTarget(label, { name: label }, owner);
  const expectRefusal = (res: ApiResponse, status: number, code: string, words: RegExp) => {
    const html = expectPage(res, status);
    expect(refusalOf(html)).toMatch(words);
    expect(html).toContain(`(error ${code}, HTTP ${status}).`);
    expect(backHref(html)).toBe("https://www.example.com/contact");
    return html;
  };

  test("404 unknown webhook, and an id that cannot be one", async () => {
    for (const id of ["wh_0000000000000000000000", "not.an.id"]) {
      const res = await send(id, { form: contact(), key: "x", headers: NAVIGATION });
      expectRefusal(res, 404, "NOT_FOUND", /not known to the service/);
    }
  });

  test("the body: 415, 413 and each 400", async () => {
    const post = (options: Parameters<typeof postIntake>[1]) => send(t.webhook, { ...options, headers: NAVIGATION });
    expectRefusal(await post({ raw: "name=Ada", contentType: "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE", /cannot be read/);
    expectRefusal(await post({ form: { big: "x".repeat(270_000) } }), 413, "PAYLOAD_TOO_LARGE", /too large/);
    expectRefusal(await post({ raw: "[1]", contentType: "application/json" }), 400, "INVALID_BODY", /could not be read/);
    expectRefusal(await post({ form: { _gotcha: "" } }), 400, "NO_DATA_FIELDS", /was empty/);
    const many = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}`, "1"]));
    expectRefusal(await post({ form: many }), 400, "TOO_MANY_FIELDS", /more fields/);
    expectRefusal(await post({ form: { ["n".repeat(101)]: "1" } }), 400, "FIELD_NAME_TOO_LONG", /field names is too long/);
    expectRefusal(await post({ form: { message: "m".repeat(10_001) } }), 400, "FIELD_VALUE_TOO_LONG", /answers is too long/);
    expectRefusal(await post({ form: contact({ _redirect: "javascript:alert(1)" }) }), 400, "INVALID_REDIRECT", /send you on/);
    expectRefusal(
      await send(t.webhook, { form: contact(), headers: { ...NAVIGATION, "idempotency-key": "k".repeat(256) } }),
      400,
      "INVALID_IDEMPOTENCY_KEY",
      /request key/,
    );
  });

  test("the secret: 401 missing, 401 wrong", async () => {
    const missing = await send(t.webhook, { form: contact(), key: null, headers: NAVIGATION });
    expectRefusal(missing, 401, "WEBHOOK_KEY_REQUIRED", /access key is missing/);
    const wrong = await send(t.webhook, { form: contact(), key: "inlet_whsk_wrong", headers: NAVIGATION });
    const html = expectRefusal(wrong, 401, "WEBHOOK_KEY_INVALID", /access key is wrong/);
    expect(html).not.toContain("inlet_whsk_wrong");
  });

  test("the webhook's and site's states: 403 disabled, 403 inactive site, 410 archived", async () => {
    const s = await fresh("states");
    await updateWebhook(s, { isEnabled: false });
    expectRefusal(await send(s.webhook, { form: contact(), headers: NAVIGATION }), 403, "WEBHOOK_DISABLED", /not accepting/);
    await updateWebhook(s, { isEnabled: true });
    await updateSite(owner, s.siteId, { isActive: false });
    expectRefusal(await send(s.webhook, { form: contact(), headers: NAVIGATION }), 403, "SITE_INACTIVE", /site is not accepting/);
    await updateSite(owner, s.siteId, { isActive: true });
    expectStatus(await api("DELETE", `/api/v1/sites/${s.siteId}/webhooks/${s.webhook.id}`, { token: owner.token }), 200);
    expectRefusal(await send(s.webhook, { form: contact(), headers: NAVIGATION }), 410, "WEBHOOK_ARCHIVED", /no longer accepts/);
  });

  test("422 an Idempotency-Key reused for other data", async () => {
    const headers = { ...NAVIGATION, "idempotency-key": `html-${Date.now()}` };
    pageReference(await send(t.webhook, { form: contact(), headers }));
    const reused = await send(t.webhook, { form: contact({ name: "Grace" }), headers });
    expectRefusal(reused, 422, "IDEMPOTENCY_KEY_REUSED", /earlier, different submission/);
  });

  test("captcha: 400 required, 403 failed, 503 unavailable (with Retry-After)", async () => {
    const s = await fresh("captcha");
    await updateSite(owner, s.siteId, {
      captcha: { provider: "challenge", siteKey: "k", secretKey: `${SECRET_PREFIX}html-${Date.now()}` },
    });
    const post = (token?: string) =>
      send(s.webhook, { form: contact(token ? { "h-captcha-response": token } : {}), headers: NAVIGATION });
    expectRefusal(await post(), 400, "CAPTCHA_REQUIRED", /complete the check/);
    expectRefusal(await post(captchaToken("fail")), 403, "CAPTCHA_FAILED", /did not pass/);
    const slow = await post(captchaToken("slow"));
    expectRefusal(slow, 503, "CAPTCHA_UNAVAILABLE", /could not be verified/);
    expect(slow.headers.get("retry-after")).not.toBeNull();
    pageReference(await post(captchaToken("pass")));
  });
});

describe('who may frame the page: the site\'s domain (docs/intake.md, "Browser answers")', () => {
  const DOMAIN_FRAMERS = [
    "https://framing.example:*",
    "https://*.framing.example:*",
    "http://framing.example:*",
    "http://*.framing.example:*",
  ].join(" ");
  let s: IntakeTarget;
  beforeAll(async () => {
    s = await intakeTarget("html-framing", { name: "Embedded form" });
    await updateSite(s.owner, s.siteId, { domain: "framing.example" });
  });
  const embedded = { ...NAVIGATION, referer: "https://www.framing.example/contact", origin: "https://www.framing.example" };

  test("the thank-you page of a site with a domain may be framed by that domain and its subdomains only", async () => {
    const html = expectPage(await send(s.webhook, { form: contact(), headers: embedded }), 200, DOMAIN_FRAMERS);
    expect(html).toContain("<h1>Thank you!</h1>");
  });

  test("so may its refusals once the site is known (inactive site, a _redirect off the domain)", async () => {
    const offDomain = contact({ _redirect: "https://elsewhere.example/thanks" });
    expectPage(await send(s.webhook, { form: offDomain, headers: embedded }), 400, DOMAIN_FRAMERS);
    await updateSite(s.owner, s.siteId, { isActive: false });
    try {
      expectPage(await send(s.webhook, { form: contact(), headers: embedded }), 403, DOMAIN_FRAMERS);
    } finally {
      await updateSite(s.owner, s.siteId, { isActive: true });
    }
  });

  test("a refusal given before the site is read belongs to no site: anyone may frame it", async () => {
    expectPage(await send(s.webhook, { form: contact(), key: "inlet_whsk_wrong", headers: embedded }), 401);
    expectPage(await send(s.webhook, { form: { _gotcha: "" }, headers: embedded }), 400);
    expectPage(await send("wh_0000000000000000000000", { form: contact(), key: "x", headers: embedded }), 404);
  });

  test("clearing the domain lets any page frame the site's answers again", async () => {
    const open = await intakeTarget("html-framing-open", { name: "Open form" });
    await updateSite(open.owner, open.siteId, { domain: "framing.example" });
    expectPage(await send(open.webhook, { form: contact(), headers: embedded }), 200, DOMAIN_FRAMERS);
    await updateSite(open.owner, open.siteId, { domain: null });
    expectPage(await send(open.webhook, { form: contact(), headers: embedded }), 200);
  });
});
