import { randomUUID } from "node:crypto";
import { loadConfig } from "../../../lib/config";
import { type Account, type ApiResponse, api, createSite, signupOwner } from "../../support/api";
import {
  BROWSER,
  CHROMIUM_HEADERS,
  chromiumMultipart,
  chromiumUrlencoded,
  expectNothingStored,
  expectStatus,
  formSubmissions,
  type IntakeTarget,
  linkedForm,
  newWebhook,
  postIntake,
  type SubmissionItem,
  submissionOnPage,
  submitted,
  type TestWebhook,
  updateSite,
} from "../../support/intake";
import { emailsTo, FIELDS, type SentEmail, waitForEmails } from "../pipeline/support/emails";

/**
 * Other services' control fields (docs/intake.md, "Other services' control
 * fields"): each service's documented example form posted as Chromium posts it (a navigation,
 * urlencoded or multipart, exactly these headers), what is stored, what happens, and the abuse
 * cases. The site's domain is example.com; Chromium's Referer is https://www.example.com/contact.
 */

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("compat");
  siteId = await createSite(owner, "Compat site");
  await updateSite(owner, siteId, { domain: "example.com" });
});

type Service = "formspree" | "formsubmit" | "basin" | "getform" | "web3forms" | "netlify";

/** A webhook of the site with `compatibility` (null: none), and its target. */
async function hookFor(
  compatibility: { service: Service; honeypotField?: string | null } | null,
  extra: Record<string, unknown> = {},
): Promise<IntakeTarget> {
  const webhook = await newWebhook(owner, siteId, { name: "Contact form", compatibility, ...extra });
  return { owner, siteId, webhook };
}

/** The form as Chromium posts it on a press of Send: a navigation, urlencoded or multipart. */
function browserPost(
  webhook: TestWebhook,
  entries: [string, string][],
  { multipart = false, key }: { multipart?: boolean; key?: string | null } = {},
): Promise<ApiResponse> {
  const body = multipart ? chromiumMultipart(entries) : undefined;
  return postIntake(webhook, {
    raw: body ? body.body : chromiumUrlencoded(entries),
    contentType: body ? body.contentType : "application/x-www-form-urlencoded",
    headers: { ...CHROMIUM_HEADERS },
    exactHeaders: true,
    ...(key === undefined ? {} : { key }),
  });
}

/** A refusal as a browser navigation gets it: a page naming the error code (docs/intake.md, "Browser answers"). */
function expectRefusedPage(res: ApiResponse, status: number, code: string): void {
  if (res.headers.get("content-type")?.startsWith("application/json")) {
    expectStatus(res, status, code);
    return;
  }
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.text).toContain(`(error ${code}, HTTP ${status})`);
}

/** A 303's target, and the submission its `ref` names (found in the webhook's form). */
async function redirectedTo(res: ApiResponse, webhookId: string): Promise<{ location: URL; stored: SubmissionItem }> {
  expectStatus(res, 303);
  const location = new URL(res.headers.get("location") ?? "");
  const ref = location.searchParams.get("ref");
  const form = await linkedForm(webhookId);
  const stored = (await formSubmissions(form.id)).find((s) => s.referenceId === ref);
  if (!stored) throw new Error(`no submission ${ref}`);
  return { location, stored };
}

const WEB3FORMS_NAMES = [
  "access_key",
  "apikey",
  "subject",
  "redirect",
  "replyto",
  "from_name",
  "ccemail",
  "botcheck",
  "webhook",
] as const;

describe("Formspree", () => {
  test("the README's form (name, _replyto) stores name, keeps the reply-to, answers the thank-you page", async () => {
    const t = await hookFor({ service: "formspree" });
    const res = await browserPost(t.webhook, [
      ["name", "Ada"],
      ["_replyto", "ada@example.org"],
    ]);
    const stored = await submissionOnPage(res, t.webhook.id);
    expect(stored.data).toEqual({ name: "Ada" });
    expect(stored.metadata.replyTo).toBe("ada@example.org");
    expect(stored.spam.isSpam).toBe(false);
  });

  test("`email` is the reply-to when no _replyto is sent (and stays data); an invalid one is no reply-to", async () => {
    const t = await hookFor({ service: "formspree" });
    const stored = await submissionOnPage(
      await browserPost(t.webhook, [
        ["email", "grace@example.org"],
        ["message", "Hi"],
      ]),
      t.webhook.id,
    );
    expect(stored.data).toEqual({ email: "grace@example.org", message: "Hi" });
    expect(stored.metadata.replyTo).toBe("grace@example.org");
    const invalid = await submissionOnPage(
      await browserPost(t.webhook, [
        ["email", "two@example.org, three@example.org"],
        ["message", "Hi"],
      ]),
      t.webhook.id,
    );
    expect(invalid.data.email).toBe("two@example.org, three@example.org");
    expect(invalid.metadata.replyTo).toBeUndefined();
  });

  test("a relative _next resolves against the Referer, then the domain rule applies", async () => {
    const t = await hookFor({ service: "formspree" });
    const up = await redirectedTo(
      await browserPost(t.webhook, [
        ["name", "Ada"],
        ["_next", "../thanks.html?x=1"],
      ]),
      t.webhook.id,
    );
    expect(up.location.origin + up.location.pathname).toBe("https://www.example.com/thanks.html");
    expect(up.location.searchParams.get("x")).toBe("1");
    // Absolute targets work as on any webhook.
    const absolute = await browserPost(t.webhook, [
      ["name", "Ada"],
      ["_next", "https://example.com/done"],
    ]);
    expect(absolute.status).toBe(303);
    expect(absolute.headers.get("location")).toMatch(/^https:\/\/example\.com\/done\?ref=/);
    // Never another host, however the path is written.
    for (const next of [
      "//evil.example/x",
      "\\\\evil.example/x",
      "/\t/evil.example/x",
      "https://evil.example/",
      "javascript:alert(1)",
    ]) {
      const res = await browserPost(t.webhook, [
        ["name", "Mallory"],
        ["_next", next],
      ]);
      expectRefusedPage(res, 400, "INVALID_REDIRECT");
    }
  });

  test("a relative _next without a Referer is 400 INVALID_REDIRECT, nothing stored", async () => {
    const t = await hookFor({ service: "formspree" });
    const { referer: _, ...noReferer } = CHROMIUM_HEADERS;
    const res = await postIntake(t.webhook, {
      raw: chromiumUrlencoded([
        ["name", "Ada"],
        ["_next", "/thanks"],
      ]),
      contentType: "application/x-www-form-urlencoded",
      headers: noReferer,
      exactHeaders: true,
    });
    expectRefusedPage(res, 400, "INVALID_REDIRECT");
    await expectNothingStored(t);
  });
});

describe("FormSubmit", () => {
  const EXAMPLE: [string, string][] = [
    ["name", "Ada"],
    ["email", "ada@example.org"],
    ["message", "Hello there"],
    ["_next", "./thank-you.html"],
    ["_captcha", "false"],
  ];

  test.each([false, true])("the example form (multipart: %s): 303 to ./thank-you.html beside the page", async (multipart) => {
    const t = await hookFor({ service: "formsubmit" });
    const { location, stored } = await redirectedTo(await browserPost(t.webhook, EXAMPLE, { multipart }), t.webhook.id);
    expect(location.origin + location.pathname).toBe("https://www.example.com/thank-you.html");
    expect(stored.data).toEqual({ name: "Ada", email: "ada@example.org", message: "Hello there" });
    expect(stored.spam.isSpam).toBe(false);
  });

  test("without the setting, the relative _next is still 400 INVALID_REDIRECT and nothing is stored", async () => {
    const t = await hookFor(null);
    expectRefusedPage(await browserPost(t.webhook, EXAMPLE), 400, "INVALID_REDIRECT");
    const other = await hookFor({ service: "web3forms" });
    expectRefusedPage(await browserPost(other.webhook, EXAMPLE), 400, "INVALID_REDIRECT");
    await expectNothingStored(t);
    await expectNothingStored(other);
  });

  test("_honey filled is spam, silently: the same 303 as a clean post", async () => {
    const t = await hookFor({ service: "formsubmit" });
    const caught = await redirectedTo(
      await browserPost(t.webhook, [...EXAMPLE, ["_honey", "http://spam.example"]]),
      t.webhook.id,
    );
    expect(caught.location.pathname).toBe("/thank-you.html");
    expect(caught.stored.spam.isSpam).toBe(true);
    expect(caught.stored.spam.signals).toContainEqual({ name: "honeypot", score: 100, detail: "_honey filled" });
    expect(caught.stored.data).toEqual({ name: "Ada", email: "ada@example.org", message: "Hello there" });
    const clean = await redirectedTo(await browserPost(t.webhook, [...EXAMPLE, ["_honey", ""]]), t.webhook.id);
    expect(clean.stored.spam.isSpam).toBe(false);
  });

  test("_honey works on a webhook without the setting too", async () => {
    const t = await hookFor(null);
    const stored = await submissionOnPage(
      await browserPost(t.webhook, [
        ["name", "Bot"],
        ["_honey", "x"],
      ]),
      t.webhook.id,
    );
    expect(stored.spam.isSpam).toBe(true);
    expect(stored.data).toEqual({ name: "Bot" });
  });

  test("_captcha, _autoresponse, _webhook, _template, _blacklist are ignored: never stored, never honoured", async () => {
    const t = await hookFor({ service: "formsubmit" });
    const stored = await submissionOnPage(
      await browserPost(t.webhook, [
        ["name", "Ada"],
        ["email", "victim@example.org"],
        ["_captcha", "false"],
        ["_autoresponse", "Buy pills at pills.example"],
        ["_webhook", "https://collector.example/steal"],
        ["_template", "table"],
        ["_blacklist", "Ada"],
      ]),
      t.webhook.id,
    );
    expect(stored.data).toEqual({ name: "Ada", email: "victim@example.org" });
    expect(stored.spam.isSpam).toBe(false);
    expect(JSON.stringify(stored)).not.toMatch(/pills|collector\.example/);
  });
});

describe("Basin and Getform", () => {
  test.each([false, true])(
    "Basin's example (multipart: %s): name, email, message stored; email is the reply-to",
    async (multipart) => {
      const t = await hookFor({ service: "basin" });
      const stored = await submissionOnPage(
        await browserPost(
          t.webhook,
          [
            ["name", "Ada"],
            ["email", "ada@example.org"],
            ["message", "Hello"],
          ],
          { multipart },
        ),
        t.webhook.id,
      );
      expect(stored.data).toEqual({ name: "Ada", email: "ada@example.org", message: "Hello" });
      expect(stored.metadata.replyTo).toBe("ada@example.org");
    },
  );

  test("Getform's _gotcha filled is spam, answered as a success", async () => {
    const t = await hookFor({ service: "getform" });
    const stored = await submissionOnPage(
      await browserPost(t.webhook, [
        ["name", "Bot"],
        ["_gotcha", "x"],
      ]),
      t.webhook.id,
    );
    expect(stored.spam.isSpam).toBe(true);
    expect(stored.data).toEqual({ name: "Bot" });
    // Getform names no reply-to field: `email` stays data only.
    const plain = await submissionOnPage(await browserPost(t.webhook, [["email", "a@example.org"]]), t.webhook.id);
    expect(plain.metadata.replyTo).toBeUndefined();
  });
});

describe("Web3Forms", () => {
  /** The "Basic Example" of its docs, its access key being the webhook's secret (no ?key=). */
  const example = (accessKey: string, redirect = "https://www.example.com/success"): [string, string][] => [
    ["access_key", accessKey],
    ["name", "Ada"],
    ["email", "ada@example.org"],
    ["message", "Hello"],
    ["redirect", redirect],
  ];

  test.each([false, true])("the basic example (multipart: %s): access_key authenticates, 303 to redirect", async (multipart) => {
    const t = await hookFor({ service: "web3forms" });
    const res = await browserPost(t.webhook, example(t.webhook.secretKey), { multipart, key: null });
    const { location, stored } = await redirectedTo(res, t.webhook.id);
    expect(location.origin + location.pathname).toBe("https://www.example.com/success");
    expect(stored.data).toEqual({ name: "Ada", email: "ada@example.org", message: "Hello" });
    expect(stored.metadata.replyTo).toBe("ada@example.org");
    // The key is nowhere: not in the item, not in the answer, not among the form's fields.
    expect(JSON.stringify(stored)).not.toContain(t.webhook.secretKey);
    expect(res.text).not.toContain(t.webhook.secretKey);
    expect(Object.keys((await linkedForm(t.webhook.id)).fields)).not.toContain("access_key");
  });

  test("a script's fetch() gets the JSON answer without the key; `apikey` (the old name) works too", async () => {
    const t = await hookFor({ service: "web3forms" });
    const res = await postIntake(t.webhook, {
      json: { access_key: t.webhook.secretKey, name: "Ada", message: "Hi" },
      key: null,
    });
    const { result, stored } = await submitted(res);
    expect(result.fieldsMapped.sort()).toEqual(["message", "name"]);
    expect(res.text).not.toContain(t.webhook.secretKey);
    expect(stored.data).toEqual({ name: "Ada", message: "Hi" });
    const legacy = await submitted(
      await postIntake(t.webhook, { form: { apikey: t.webhook.secretKey, name: "Grace" }, key: null }),
    );
    expect(legacy.stored.data).toEqual({ name: "Grace" });
    expect(JSON.stringify(legacy.stored)).not.toContain(t.webhook.secretKey);
  });

  test("a wrong access_key is 401 WEBHOOK_KEY_INVALID, none is WEBHOOK_KEY_REQUIRED; nothing stored", async () => {
    const t = await hookFor({ service: "web3forms" });
    const wrong = await browserPost(t.webhook, example(`${t.webhook.secretKey.slice(0, -1)}x`), { key: null });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("WEBHOOK_KEY_INVALID");
    expect(wrong.text).not.toContain(t.webhook.secretKey.slice(11, 30));
    const none = await postIntake(t.webhook, { json: { name: "Ada" }, key: null });
    expectStatus(none, 401, "WEBHOOK_KEY_REQUIRED");
    await expectNothingStored(t);
  });

  test("?key= and X-Webhook-Key come first: a right query key with a wrong body key is accepted, and the reverse refused", async () => {
    const t = await hookFor({ service: "web3forms" });
    const ok = await submitted(await postIntake(t.webhook, { json: { access_key: "wrong", name: "Ada" } }));
    expect(ok.stored.data).toEqual({ name: "Ada" });
    expectStatus(
      await postIntake(t.webhook, { json: { access_key: t.webhook.secretKey, name: "Ada" }, key: "wrong" }),
      401,
      "WEBHOOK_KEY_INVALID",
    );
    expectStatus(
      await postIntake(t.webhook, {
        json: { access_key: t.webhook.secretKey, name: "Ada" },
        key: null,
        headers: { "x-webhook-key": "wrong" },
      }),
      401,
      "WEBHOOK_KEY_INVALID",
    );
  });

  test("a redirect to another domain is 400 INVALID_REDIRECT and nothing is stored", async () => {
    const t = await hookFor({ service: "web3forms" });
    for (const target of [
      "https://web3forms.com/success",
      "https://example.com.evil.example/",
      "/success",
      "javascript:alert(1)",
    ]) {
      const res = await browserPost(t.webhook, example(t.webhook.secretKey, target), { key: null });
      expectRefusedPage(res, 400, "INVALID_REDIRECT");
      expect(res.text).toContain("redirect must");
      // A script's fetch() gets the JSON refusal.
      const json = await postIntake(t.webhook, {
        json: { access_key: t.webhook.secretKey, name: "A", redirect: target },
        key: null,
      });
      expectStatus(json, 400, "INVALID_REDIRECT");
      expect(json.body.error.message).toMatch(/^redirect /);
    }
    await expectNothingStored(t);
  });

  test("_redirect wins over redirect", async () => {
    const t = await hookFor({ service: "web3forms" });
    const res = await browserPost(t.webhook, [...example(t.webhook.secretKey), ["_redirect", "https://example.com/mine"]], {
      key: null,
    });
    expect(res.headers.get("location")).toMatch(/^https:\/\/example\.com\/mine\?ref=/);
  });

  test("botcheck is a checkbox: ticked (any value) is spam, silently; unticked (absent, false) is not; never stored", async () => {
    const t = await hookFor({ service: "web3forms" });
    const ticked = await redirectedTo(
      await browserPost(t.webhook, [...example(t.webhook.secretKey), ["botcheck", "on"]], { key: null }),
      t.webhook.id,
    );
    expect(ticked.stored.spam.isSpam).toBe(true);
    expect(ticked.stored.spam.signals).toContainEqual({ name: "honeypot", score: 100, detail: "botcheck filled" });
    expect(ticked.stored.data).not.toHaveProperty("botcheck");
    // react-hook-form posts an unticked box as false.
    const unticked = await submitted(
      await postIntake(t.webhook, {
        json: { name: "Ada", botcheck: false },
        headers: { ...BROWSER, referer: "https://www.example.com/contact" },
      }),
    );
    expect(unticked.stored.spam.signals.map((signal) => signal.name)).not.toContain("honeypot");
    expect(unticked.stored.spam.isSpam).toBe(false);
    expect(unticked.stored.data).toEqual({ name: "Ada" });
  });

  test("subject, replyto, from_name become metadata; webhook is dropped and never stored; header injection is flattened", async () => {
    const t = await hookFor({ service: "web3forms" });
    const { stored } = await redirectedTo(
      await browserPost(
        t.webhook,
        [
          ...example(t.webhook.secretKey),
          ["subject", `New lead\r\nBcc: victim@example.org\r\n${"x".repeat(300)}`],
          ["replyto", "reply@example.org"],
          ["from_name", 'Website "Team" <ceo@bank.example>\r\nX-Evil: 1'],
          ["webhook", "https://collector.example/hook?token=s3cret"],
        ],
        { key: null },
      ),
      t.webhook.id,
    );
    expect(stored.data).toEqual({ name: "Ada", email: "ada@example.org", message: "Hello" });
    expect(stored.metadata.replyTo).toBe("reply@example.org");
    const subject = stored.metadata.subject ?? "";
    expect(subject.startsWith("New lead Bcc: victim@example.org xxx")).toBe(true);
    expect([...subject]).toHaveLength(200);
    expect(subject).not.toMatch(/[\r\n]/);
    // A from_name holding an address is no name at all.
    expect(stored.metadata.fromName).toBeUndefined();
    expect(JSON.stringify(stored)).not.toMatch(/collector\.example|s3cret/);
    const named = await submitted(
      await postIntake(t.webhook, { json: { name: "A", from_name: '  Acme "Web" <Site>\r\nX: 1 ' } }),
    );
    expect(named.stored.metadata.fromName).toBe("Acme Web Site X: 1");
  });

  test("an invalid replyto is no reply-to; the submission is still stored with it as sent", async () => {
    const t = await hookFor({ service: "web3forms" });
    const { stored } = await submitted(
      await postIntake(t.webhook, { json: { name: "Ada", replyto: "a@example.org, b@example.org" } }),
    );
    expect(stored.data).toEqual({ name: "Ada" });
    expect(stored.metadata.replyTo).toBe("a@example.org, b@example.org");
  });
});

describe("Netlify", () => {
  const EXAMPLE: [string, string][] = [
    ["form-name", "contact"],
    ["bot-field", ""],
    ["name", "Ada"],
    ["email", "ada@example.org"],
    ["message", "Hello"],
  ];

  test.each([false, true])("the example form (multipart: %s): form-name names the auto-created form", async (multipart) => {
    const t = await hookFor({ service: "netlify" });
    const stored = await submissionOnPage(await browserPost(t.webhook, EXAMPLE, { multipart }), t.webhook.id);
    expect(stored.data).toEqual({ name: "Ada", email: "ada@example.org", message: "Hello" });
    expect(stored.spam.isSpam).toBe(false);
    expect(stored.metadata.replyTo).toBe("ada@example.org");
    const form = await linkedForm(t.webhook.id);
    expect(form.name).toBe("contact");
    expect(Object.keys(form.fields).sort()).toEqual(["email", "message", "name"]);
  });

  test("_form wins over form-name", async () => {
    const t = await hookFor({ service: "netlify" });
    await submissionOnPage(await browserPost(t.webhook, [...EXAMPLE, ["_form", "Mine"]]), t.webhook.id);
    expect((await linkedForm(t.webhook.id)).name).toBe("Mine");
  });

  test("bot-field filled is spam, silently; a honeypotField set on the webhook replaces it", async () => {
    const t = await hookFor({ service: "netlify" });
    const caught = await browserPost(
      t.webhook,
      EXAMPLE.map(([k, v]) => [k, k === "bot-field" ? "I am a bot" : v]),
    );
    const stored = await submissionOnPage(caught, t.webhook.id);
    expect(stored.spam.isSpam).toBe(true);
    expect(stored.spam.signals).toContainEqual({ name: "honeypot", score: 100, detail: "bot-field filled" });

    const custom = await hookFor({ service: "netlify", honeypotField: "my-trap" });
    const trapped = await submissionOnPage(await browserPost(custom.webhook, [...EXAMPLE, ["my-trap", "x"]]), custom.webhook.id);
    expect(trapped.spam.isSpam).toBe(true);
    expect(trapped.data).toEqual({ "bot-field": "", name: "Ada", email: "ada@example.org", message: "Hello" });
    const clean = await submissionOnPage(await browserPost(custom.webhook, [...EXAMPLE, ["my-trap", ""]]), custom.webhook.id);
    expect(clean.spam.isSpam).toBe(false);
    expect(clean.data).not.toHaveProperty("my-trap");
  });
});

describe("without a compatibility setting", () => {
  test("every unprefixed name is data, exactly as before, and access_key authenticates nothing", async () => {
    const t = await hookFor(null);
    const fields: [string, string][] = [
      ["subject", "Pricing"],
      ["redirect", "https://evil.example/"],
      ["replyto", "r@example.org"],
      ["from_name", "Acme"],
      ["access_key", "not-a-secret"],
      ["apikey", "also-data"],
      ["ccemail", "c@example.org"],
      ["botcheck", "on"],
      ["webhook", "https://hooks.example/x"],
      ["form-name", "contact"],
      ["bot-field", "filled"],
    ];
    const stored = await submissionOnPage(await browserPost(t.webhook, fields), t.webhook.id);
    expect(stored.data).toEqual(Object.fromEntries(fields));
    expect(stored.spam.isSpam).toBe(false);
    expect(stored.metadata).not.toHaveProperty("subject");
    expect(stored.metadata).not.toHaveProperty("replyTo");
    expect((await linkedForm(t.webhook.id)).name).toBe("Contact form");
    expectStatus(
      await postIntake(t.webhook, { form: { access_key: t.webhook.secretKey, name: "x" }, key: null }),
      401,
      "WEBHOOK_KEY_REQUIRED",
    );
  });

  test("another service's setting leaves web3forms' names as data", async () => {
    const t = await hookFor({ service: "formspree" });
    const fields: [string, string][] = WEB3FORMS_NAMES.map((name) => [name, `v-${name}`]);
    const stored = await submissionOnPage(await browserPost(t.webhook, fields), t.webhook.id);
    expect(stored.data).toEqual(Object.fromEntries(fields));
  });

  test("clearing the setting makes the names data again at once (the test stack keeps no configuration)", async () => {
    const t = await hookFor({ service: "web3forms" });
    const before = await submitted(await postIntake(t.webhook, { json: { name: "A", subject: "S" } }));
    expect(before.stored.data).toEqual({ name: "A" });
    const res = await api("PUT", `/api/v1/sites/${siteId}/webhooks/${t.webhook.id}`, {
      token: owner.token,
      body: { compatibility: null },
    });
    expect(res.status).toBe(200);
    const after = await submitted(await postIntake(t.webhook, { json: { name: "A", subject: "S" } }));
    expect(after.stored.data).toEqual({ name: "A", subject: "S" });
  });
});

describe("carbon copies and the notification email (through the SES emulator)", () => {
  const address = (label: string) => `${label}-${randomUUID()}@example.com`;

  /** A builder form notifying `notifyEmails`, fed by a webhook with `compatibility`. */
  async function notifying(notifyEmails: string[], compatibility: { service: Service } | null) {
    const res = await api("POST", `/api/v1/sites/${siteId}/forms`, {
      token: owner.token,
      body: { name: "Quotes", fields: FIELDS, settings: { notifyEmails } },
    });
    if (res.status !== 201) throw new Error(`form creation failed: ${res.status} ${res.text}`);
    const formId = res.body.data.form.id as string;
    return hookFor(compatibility, { formId });
  }

  const decodedFrom = (from: string) =>
    from.replace(/=\?UTF-8\?B\?([^?]*)\?=\s*/g, (_, b64: string) => Buffer.from(b64, "base64").toString("utf8"));

  test("web3forms: subject, from_name, replyto and ccemail shape the one email; a stranger in ccemail gets nothing", async () => {
    const sales = address("sales");
    const ops = address("ops");
    const stranger = address("stranger");
    const t = await notifying([sales, ops], { service: "web3forms" });
    const { stored } = await redirectedTo(
      await browserPost(
        t.webhook,
        [
          ["access_key", t.webhook.secretKey],
          ["name", "Ada Lovelace"],
          ["email", "ada@analytical-engines.example.com"],
          ["message", "Please quote 40 engines before the end of the quarter, thank you."],
          ["subject", "Quote request\r\nBcc: victim@example.org"],
          ["from_name", "Website\r\nX-Evil: 1"],
          ["replyto", "buyer@analytical-engines.example.com"],
          ["ccemail", `${ops.toUpperCase()}; ${stranger}`],
          ["redirect", "https://www.example.com/thanks"],
        ],
        { key: null },
      ),
      t.webhook.id,
    );
    expect(stored.metadata.cc).toEqual([ops]);
    expect(stored.metadata.ccIgnored).toBe(1);
    expect(JSON.stringify(stored)).not.toContain(stranger);

    const [email, ...more] = await waitForEmails(sales);
    expect(more).toEqual([]);
    expect(email?.destination).toEqual({ to: [sales], cc: [ops], bcc: [] });
    expect(email?.subject).toBe(`Quote request Bcc: victim@example.org (${stored.referenceId})`);
    expect(email?.replyTo).toEqual(["buyer@analytical-engines.example.com"]);
    const sender = loadConfig().NOTIFY_FROM;
    const senderAddress = /<([^>]+)>/.exec(sender)?.[1] ?? sender;
    expect(decodedFrom(email?.from ?? "")).toBe(`Website X-Evil: 1<${senderAddress}>`);
    expect(await emailsTo(stranger)).toEqual([]);
    const all = (await (await fetch(`${process.env.INLET_SES_URL}/store`)).json()) as { emails: SentEmail[] };
    expect(all.emails.filter((e) => JSON.stringify(e.destination).includes(stranger))).toEqual([]);
  });

  test("_cc works on any webhook; only strangers: everyone stays in To, nobody else is mailed, metadata says so", async () => {
    const sales = address("sales");
    const ops = address("ops");
    const stranger = address("stranger");
    const t = await notifying([sales, ops], null);
    const stored = await submissionOnPage(
      await browserPost(t.webhook, [
        ["name", "Ada Lovelace"],
        ["email", "ada@analytical-engines.example.com"],
        ["message", "Please quote 40 engines before the end of the quarter, thank you."],
        ["_cc", `${stranger},another-${stranger}`],
        ["_subject", "Hello from the site"],
      ]),
      t.webhook.id,
    );
    expect(stored.metadata.cc).toBeUndefined();
    expect(stored.metadata.ccIgnored).toBe(2);
    expect(stored.data).not.toHaveProperty("_cc");
    const [email] = await waitForEmails(sales);
    expect(email?.destination).toEqual({ to: [sales, ops], cc: [], bcc: [] });
    expect(email?.subject).toBe(`Hello from the site (${stored.referenceId})`);
    expect(email?.from).toBe(loadConfig().NOTIFY_FROM);
    expect(await emailsTo(stranger)).toEqual([]);
    expect(await emailsTo(`another-${stranger}`)).toEqual([]);
  });

  test("_cc naming every recipient moves nobody (the email needs a To); a recipient named twice counts once", async () => {
    const sales = address("sales");
    const t = await notifying([sales], { service: "formspree" });
    const stored = await submissionOnPage(
      await browserPost(t.webhook, [
        ["name", "Ada Lovelace"],
        ["email", "ada@analytical-engines.example.com"],
        ["message", "Please quote 40 engines before the end of the quarter, thank you."],
        ["_cc", `${sales};${sales.toUpperCase()}`],
      ]),
      t.webhook.id,
    );
    expect(stored.metadata.cc).toEqual([sales]);
    expect(stored.metadata.ccIgnored).toBeUndefined();
    const [email] = await waitForEmails(sales);
    expect(email?.destination).toEqual({ to: [sales], cc: [], bcc: [] });
    // Formspree's `email` is the reply-to.
    expect(email?.replyTo).toEqual(["ada@analytical-engines.example.com"]);
  });
});
