import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { sha256Hex } from "../../lib/ids";
import { db, tableName } from "../../lib/aws/dynamodb";
import { keys } from "../../lib/store/keys";
import { api, type Account, signupOwner } from "../support/api";
import { insertForm } from "../support/fixtures";
import {
  accepted,
  expectStatus,
  formItem,
  formSubmissions,
  type IntakeTarget,
  intakePath,
  intakeTarget,
  linkedForm,
  postIntake,
  siblingWebhook,
  storedSubmission,
  updateSite,
  updateWebhook,
  webhookItem,
} from "../support/intake";

/** The browser-like headers most tests send, so the spam score stays out of the way. */
const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", referer: "https://example.com/contact" };

let owner: Account;
beforeAll(async () => {
  owner = await signupOwner("intake");
});

const target = (label: string, webhook?: Record<string, unknown>) => intakeTarget(label, webhook, owner);

async function submitted(res: Awaited<ReturnType<typeof postIntake>>) {
  const result = accepted(res);
  const stored = await storedSubmission(result.submissionId);
  if (!stored) throw new Error(`submission ${result.submissionId} was answered 200 but is not in the table`);
  return { result, stored };
}

/** Nothing was stored for the webhook: no count, no form, no submission. */
async function expectNothingStored(t: IntakeTarget) {
  const item = await webhookItem(t.webhook.id);
  expect(item?.submissionCount).toBe(0);
  expect(item?.lastReceivedAt).toBeNull();
  if (item?.formId) expect(await formSubmissions(item.formId)).toEqual([]);
}

describe("content types", () => {
  test("JSON: 200 with the result at the top level, and the submission stored with its metadata", async () => {
    const t = await target("json");
    const res = await postIntake(t.webhook, {
      json: { name: "Ada Lovelace", email: "ada@example.com", message: "Hello" },
      headers: BROWSER,
    });
    const { result, stored } = await submitted(res);
    expect(res.body).toEqual({
      success: true,
      submissionId: expect.stringMatching(/^sub_[0-9A-Za-z]{22}$/),
      referenceId: expect.stringMatching(/^JSON-\d+$/),
      fieldsMapped: ["name", "email", "message"],
    });
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(stored).toMatchObject({
      id: result.submissionId,
      referenceId: result.referenceId,
      webhookId: t.webhook.id,
      siteId: t.siteId,
      orgId: owner.orgId,
      data: { name: "Ada Lovelace", email: "ada@example.com", message: "Hello" },
      metadata: {
        source: "generic",
        userAgent: BROWSER["user-agent"],
        referer: BROWSER.referer,
        ip: expect.any(String),
        droppedFiles: [],
        ignoredFields: [],
      },
      spam: { score: expect.any(Number), isSpam: expect.any(Boolean), signals: expect.any(Array) },
      createdAt: expect.any(String),
    });
    expect(stored.type).toBe("submission");
  });

  test("urlencoded: repeated keys and name[] become lists; a single name[] is a list of one", async () => {
    const t = await target("urlencoded");
    const { stored } = await submitted(
      await postIntake(t.webhook, {
        form: [
          ["name", "Grace Hopper"],
          ["interest", "cobol"],
          ["interest", "compilers"],
          ["tags[]", "navy"],
          ["tags[]", "math"],
          ["solo[]", "only"],
          ["empty", ""],
        ],
      }),
    );
    expect(stored.data).toEqual({
      name: "Grace Hopper",
      interest: ["cobol", "compilers"],
      tags: ["navy", "math"],
      solo: ["only"],
      empty: "",
    });
  });

  test("multipart: text fields stored, files dropped and named in metadata.droppedFiles", async () => {
    const t = await target("multipart");
    const form = new FormData();
    form.append("name", "Katherine Johnson");
    form.append("cv", new Blob([Buffer.from("%PDF-1.7 secret file contents")], { type: "application/pdf" }), "cv.pdf");
    form.append("photo", new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xe0])], { type: "image/jpeg" }), "me.jpg");
    form.append("note", "multi\nline");
    const res = await api("POST", `${intakePath(t.webhook.id)}?key=${t.webhook.secretKey}`, { rawBody: form as never });
    const { stored } = await submitted(res);
    expect(stored.data).toEqual({ name: "Katherine Johnson", note: "multi\r\nline" });
    expect(stored.metadata.droppedFiles).toEqual(["cv", "photo"]);
    expect(JSON.stringify(stored)).not.toContain("secret file contents");
  });

  test("charset: ISO-8859-1 urlencoded %E9 is é; undeclared non-UTF-8 bytes are read as Windows-1252", async () => {
    const t = await target("charset");
    const latin = await submitted(
      await postIntake(t.webhook, { raw: "name=Ren%E9+Z%FCrcher&city=K%F8benhavn", contentType: "application/x-www-form-urlencoded; charset=ISO-8859-1" }),
    );
    expect(latin.stored.data).toEqual({ name: "René Zürcher", city: "København" });
    // Browsers never put a charset on urlencoded posts: a legacy Latin-1 page must not lose é.
    const legacy = await submitted(
      await postIntake(t.webhook, { raw: "name=Ren%E9&price=%8010", contentType: "application/x-www-form-urlencoded" }),
    );
    expect(legacy.stored.data).toEqual({ name: "René", price: "€10" });
    // The HTML standard's `_charset_` field names the encoding the browser used.
    const named = await submitted(
      await postIntake(t.webhook, {
        raw: "_charset_=windows-1251&name=%CF%F0%E8%E2%E5%F2",
        contentType: "application/x-www-form-urlencoded",
      }),
    );
    expect(named.stored.data).toEqual({ name: "Привет" });
    const utf8 = await submitted(await postIntake(t.webhook, { form: { name: "René 🎉 Привет" } }));
    expect(utf8.stored.data).toEqual({ name: "René 🎉 Привет" });
  });

  test("charset: a multipart part's own charset is honoured", async () => {
    const t = await target("part-charset");
    const boundary = "XyZbOuNdArY";
    const part = (headers: string, content: Buffer) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), content, Buffer.from("\r\n")]);
    const body = Buffer.concat([
      part('Content-Disposition: form-data; name="latin"\r\nContent-Type: text/plain; charset=iso-8859-1', Buffer.from([0x52, 0x65, 0x6e, 0xe9])),
      part('Content-Disposition: form-data; name="japanese"\r\nContent-Type: text/plain; charset=Shift_JIS', Buffer.from([0x93, 0xfa, 0x96, 0x7b])),
      part('Content-Disposition: form-data; name="utf16"\r\nContent-Type: text/plain; charset=utf-16le', Buffer.from("Zoë", "utf16le")),
      part('Content-Disposition: form-data; name="plain"', Buffer.from("Zoë", "utf8")),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const { stored } = await submitted(
      await postIntake(t.webhook, { raw: body, contentType: `multipart/form-data; boundary=${boundary}` }),
    );
    expect(stored.data).toEqual({ latin: "René", japanese: "日本", utf16: "Zoë", plain: "Zoë" });
  });

  test.each([
    ["text/plain", "name=x"],
    ["application/xml", "<name>x</name>"],
    ["application/x-www-form-urlencoded; charset=klingon", "name=x"],
    ["application/json; charset=klingon", '{"name":"x"}'],
    ["multipart/form-data; boundary=b; charset=klingon", '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--b--'],
  ])("415 UNSUPPORTED_MEDIA_TYPE for %s", async (contentType, raw) => {
    const t = await target("unsupported");
    const res = await postIntake(t.webhook, { raw, contentType });
    expectStatus(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectNothingStored(t);
  });

  test("415 when there is no content type at all", async () => {
    const t = await target("no-type");
    const res = await postIntake(t.webhook, { raw: Buffer.from('{"name":"x"}') });
    expectStatus(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  test.each([
    ["malformed JSON", "application/json", '{"name": "x",}'],
    ["a JSON array", "application/json", '[{"name": "x"}]'],
    ["a JSON string", "application/json", '"name"'],
    ["JSON null", "application/json", "null"],
    ["JSON nested past 32 levels", "application/json", `{"a":${"[".repeat(40)}1${"]".repeat(40)}}`],
    ["JSON nested 100,000 levels", "application/json", `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`],
    ["a number with leading zeros", "application/json", '{"id": 00000000000000000001}'],
    ["multipart without a boundary", "multipart/form-data", "name=x"],
    ["a truncated multipart body", "multipart/form-data; boundary=b", '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx'],
  ])("400 INVALID_BODY for %s", async (_label, contentType, raw) => {
    const t = await target("invalid");
    const res = await postIntake(t.webhook, { raw, contentType });
    expectStatus(res, 400, "INVALID_BODY");
    await expectNothingStored(t);
  });

  test.each([
    ["an empty JSON body", "application/json", ""],
    ["an empty object", "application/json", "{}"],
    ["an empty data object", "application/json", '{"data": {}, "name": "ignored"}'],
    ["only control fields", "application/json", '{"_redirect": "https://example.com/", "_hp": ""}'],
    ["only nulls", "application/json", '{"a": null}'],
    ["an empty form", "application/x-www-form-urlencoded", ""],
    ["only a captcha token", "application/x-www-form-urlencoded", "g-recaptcha-response=abc"],
    ["a form of blank names", "application/x-www-form-urlencoded", "=x&%20=y&&"],
  ])("400 NO_DATA_FIELDS for %s", async (_label, contentType, raw) => {
    const t = await target("nodata");
    const res = await postIntake(t.webhook, { raw, contentType });
    expectStatus(res, 400, "NO_DATA_FIELDS");
    await expectNothingStored(t);
  });
});

describe("limits", () => {
  let t: IntakeTarget;
  beforeAll(async () => {
    t = await target("limits");
  });

  const fields = (n: number, valueLength = 1) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, "v".repeat(valueLength)]));

  test("a body over 256 KB is 413 PAYLOAD_TOO_LARGE; just under is accepted", async () => {
    expectStatus(await postIntake(t.webhook, { json: fields(200, 1320) }), 413, "PAYLOAD_TOO_LARGE");
    expectStatus(await postIntake(t.webhook, { form: fields(200, 1320) }), 413, "PAYLOAD_TOO_LARGE");
    const under = await postIntake(t.webhook, { json: fields(190, 1320) });
    expect(JSON.stringify(fields(190, 1320)).length).toBeLessThan(256 * 1024);
    accepted(under);
  });

  test("a body that grows past 300 KB once decoded is 413 too (Windows-1252 bytes become 3-byte UTF-8), never a 500", async () => {
    const raw = Buffer.concat(
      Array.from({ length: 20 }, (_, i) => Buffer.concat([Buffer.from(`${i ? "&" : ""}f${i}=`), Buffer.alloc(10_000, 0x80)])),
    );
    expect(raw.length).toBeLessThan(256 * 1024);
    expectStatus(await postIntake(t.webhook, { raw, contentType: "application/x-www-form-urlencoded" }), 413, "PAYLOAD_TOO_LARGE");
    // Half of it fits: 10 fields of 10,000 euro signs.
    const { stored } = await submitted(await postIntake(t.webhook, { raw: raw.subarray(0, raw.length / 2 - 1), contentType: "application/x-www-form-urlencoded" }));
    expect(stored.data.f0).toBe("€".repeat(10_000));
  });

  test("more than 200 fields is 400 TOO_MANY_FIELDS; 200 are accepted", async () => {
    expectStatus(await postIntake(t.webhook, { json: fields(201) }), 400, "TOO_MANY_FIELDS");
    expectStatus(await postIntake(t.webhook, { form: fields(201) }), 400, "TOO_MANY_FIELDS");
    const entries = Object.entries(fields(201));
    const form = new FormData();
    for (const [k, v] of entries) form.append(k, v);
    const multipart = await api("POST", `${intakePath(t.webhook.id)}?key=${t.webhook.secretKey}`, { rawBody: form as never });
    expectStatus(multipart, 400, "TOO_MANY_FIELDS");
    accepted(await postIntake(t.webhook, { json: fields(200) }));
    accepted(await postIntake(t.webhook, { form: fields(200) }));
  });

  test("a list counts once: a checkbox group of 100 values next to 199 fields is accepted; 101 values are not", async () => {
    const pairs: [string, string][] = [...Array.from({ length: 100 }, (_, i): [string, string] => ["pick", `p${i}`]), ...Object.entries(fields(199))];
    const { stored } = await submitted(await postIntake(t.webhook, { form: pairs }));
    expect(stored.data.pick).toHaveLength(100);
    const tooMany = Array.from({ length: 101 }, (_, i): [string, string] => ["pick", `p${i}`]);
    expectStatus(await postIntake(t.webhook, { form: tooMany }), 400, "TOO_MANY_FIELDS");
  });

  test("a field name over 100 characters is 400 FIELD_NAME_TOO_LONG in every content type; 100 (even in 3-byte characters) is accepted", async () => {
    const long = "n".repeat(101);
    expectStatus(await postIntake(t.webhook, { json: { [long]: "x" } }), 400, "FIELD_NAME_TOO_LONG");
    expectStatus(await postIntake(t.webhook, { form: { [long]: "x" } }), 400, "FIELD_NAME_TOO_LONG");
    const form = new FormData();
    form.append(long, "x");
    expectStatus(
      await api("POST", `${intakePath(t.webhook.id)}?key=${t.webhook.secretKey}`, { rawBody: form as never }),
      400,
      "FIELD_NAME_TOO_LONG",
    );
    expectStatus(await postIntake(t.webhook, { json: { a: { [long]: "x" } } }), 400, "FIELD_NAME_TOO_LONG");
    const { stored } = await submitted(await postIntake(t.webhook, { form: { ["名".repeat(100)]: "x", ["n".repeat(100)]: "y" } }));
    expect(Object.keys(stored.data).sort()).toEqual(["n".repeat(100), "名".repeat(100)].sort());
  });

  test("a value over 10,000 characters is 400 FIELD_VALUE_TOO_LONG in every content type; 10,000 (even in 2-byte characters) is accepted", async () => {
    const long = "v".repeat(10_001);
    expectStatus(await postIntake(t.webhook, { json: { message: long } }), 400, "FIELD_VALUE_TOO_LONG");
    expectStatus(await postIntake(t.webhook, { form: { message: long } }), 400, "FIELD_VALUE_TOO_LONG");
    expectStatus(await postIntake(t.webhook, { json: { list: ["ok", long] } }), 400, "FIELD_VALUE_TOO_LONG");
    const form = new FormData();
    form.append("message", long);
    expectStatus(
      await api("POST", `${intakePath(t.webhook.id)}?key=${t.webhook.secretKey}`, { rawBody: form as never }),
      400,
      "FIELD_VALUE_TOO_LONG",
    );
    const { stored } = await submitted(await postIntake(t.webhook, { form: { message: "é".repeat(10_000), emoji: "🎉".repeat(10_000) } }));
    expect(stored.data.message).toHaveLength(10_000);
    expect([...(stored.data.emoji as string)]).toHaveLength(10_000);
  });
});

describe("field names and shapes", () => {
  test("__proto__, constructor and prototype pollute nothing and are listed in metadata.ignoredFields", async () => {
    const t = await target("pollution");
    const raw =
      '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": "p",' +
      ' "a": {"__proto__": {"polluted": "yes"}}, "b__proto__": "z", "toString": "kept", "email": "x@example.com"}';
    const json = await submitted(await postIntake(t.webhook, { raw, contentType: "application/json" }));
    expect(json.stored.data).toEqual({ toString: "kept", email: "x@example.com" });
    expect(json.stored.metadata.ignoredFields.sort()).toEqual(["__proto__", "a.__proto__", "b__proto__", "constructor", "prototype"].sort());

    const form = await submitted(
      await postIntake(t.webhook, {
        raw: "__proto__[polluted]=yes&__proto__=x&constructor=y&a.prototype=z&name=ok",
        contentType: "application/x-www-form-urlencoded",
      }),
    );
    expect(form.stored.data).toEqual({ name: "ok" });
    expect(form.stored.metadata.ignoredFields.sort()).toEqual(["__proto__", "__proto__[polluted]", "a.prototype", "constructor"].sort());

    // Nothing leaked into any object of the running service: a later submission is clean.
    const later = await submitted(await postIntake(t.webhook, { json: { plain: "1" } }));
    expect(later.stored.data).toEqual({ plain: "1" });
    expect(Object.keys(later.stored.metadata)).not.toContain("polluted");
    const fields = (await linkedForm(t.webhook.id)).fields;
    for (const name of ["__proto__", "constructor", "prototype", "polluted"]) expect(Object.keys(fields)).not.toContain(name);
  });

  test("a JSON body with a data object: that object is the fields; top-level control fields still count", async () => {
    const t = await target("data-rule");
    const res = await postIntake(t.webhook, {
      json: { data: { name: "Ada", email: "ada@example.com" }, source: "not a field", _redirect: "https://example.com/ok" },
    });
    expect(res.status).toBe(303);
    const form = await linkedForm(t.webhook.id);
    const [stored] = await formSubmissions(form.id);
    expect(stored?.data).toEqual({ name: "Ada", email: "ada@example.com" });
    // `data` that is not an object is an ordinary field.
    const plain = await submitted(await postIntake(t.webhook, { json: { data: "just text", n: 1 } }));
    expect(plain.stored.data).toEqual({ data: "just text", n: "1" });
  });

  test("nested JSON is stored under dotted keys; Zapier's a__b is stored as a.b; scalars become text", async () => {
    const t = await target("nested");
    const json = await submitted(
      await postIntake(t.webhook, {
        json: {
          contact: { name: "Ada", address: { city: "London", zip: "NW1" } },
          tags: ["a", 2, true, null],
          items: [{ sku: "X1" }],
          count: 3,
          price: 9.5,
          ok: false,
          skipped: null,
          deep: { l2: { l3: { l4: { l5: { l6: "too deep" } } } } },
        },
      }),
    );
    expect(json.stored.data).toEqual({
      "contact.name": "Ada",
      "contact.address.city": "London",
      "contact.address.zip": "NW1",
      tags: ["a", "2", "true", ""],
      items: '[{"sku":"X1"}]',
      count: "3",
      price: "9.5",
      ok: "false",
      "deep.l2.l3.l4.l5": '{"l6":"too deep"}',
    });
    const zapier = await submitted(
      await postIntake(t.webhook, { form: { contact__name: "Grace", contact__address__city: "Arlington", plain: "x" } }),
    );
    expect(zapier.stored.data).toEqual({ "contact.name": "Grace", "contact.address.city": "Arlington", plain: "x" });
    // Both spellings land in the same form field.
    expect(zapier.result.fieldsMapped).toEqual(expect.arrayContaining(["contact.name", "contact.address.city"]));
  });
});

describe("authentication and states", () => {
  test("the secret is accepted in ?key= and in X-Webhook-Key", async () => {
    const t = await target("secret");
    accepted(await postIntake(t.webhook, { json: { a: "1" } }));
    accepted(await postIntake(t.webhook, { json: { a: "2" }, key: null, headers: { "x-webhook-key": t.webhook.secretKey } }));
    // An empty ?key= does not hide a header that carries the secret.
    accepted(await postIntake(t.webhook, { json: { a: "3" }, key: "", headers: { "x-webhook-key": t.webhook.secretKey } }));
    expect((await webhookItem(t.webhook.id))?.submissionCount).toBe(3);
  });

  test("missing secret 401 WEBHOOK_KEY_REQUIRED, wrong 401 WEBHOOK_KEY_INVALID, and nothing is stored", async () => {
    const t = await target("no-secret");
    expectStatus(await postIntake(t.webhook, { json: { a: "1" }, key: null }), 401, "WEBHOOK_KEY_REQUIRED");
    expectStatus(await postIntake(t.webhook, { json: { a: "1" }, key: "" }), 401, "WEBHOOK_KEY_REQUIRED");
    expectStatus(await postIntake(t.webhook, { json: { a: "1" }, key: `${t.webhook.secretKey}x` }), 401, "WEBHOOK_KEY_INVALID");
    expectStatus(
      await postIntake(t.webhook, { json: { a: "1" }, key: null, headers: { "x-webhook-key": "inlet_whsk_wrong" } }),
      401,
      "WEBHOOK_KEY_INVALID",
    );
    // A key in an ordinary (non-advertising) body is data, not a secret.
    expectStatus(await postIntake(t.webhook, { json: { google_key: t.webhook.secretKey }, key: null }), 401, "WEBHOOK_KEY_REQUIRED");
    await expectNothingStored(t);
  });

  test("disabled 403 WEBHOOK_DISABLED, inactive site 403 SITE_INACTIVE, archived 410, and each recovers", async () => {
    const t = await target("states");
    await updateWebhook(t, { isEnabled: false });
    expectStatus(await postIntake(t.webhook, { json: { a: "1" } }), 403, "WEBHOOK_DISABLED");
    await updateWebhook(t, { isEnabled: true });
    accepted(await postIntake(t.webhook, { json: { a: "1" } }));

    await updateSite(t.owner, t.siteId, { isActive: false });
    expectStatus(await postIntake(t.webhook, { json: { a: "2" } }), 403, "SITE_INACTIVE");
    await updateSite(t.owner, t.siteId, { isActive: true });

    await api("DELETE", `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`, { token: t.owner.token });
    expectStatus(await postIntake(t.webhook, { json: { a: "3" } }), 410, "WEBHOOK_ARCHIVED");
    await updateWebhook(t, { restore: true, isEnabled: true });
    accepted(await postIntake(t.webhook, { json: { a: "4" } }));
    expect((await webhookItem(t.webhook.id))?.submissionCount).toBe(2);
  });

  test("unknown 404 and permanently deleted 404", async () => {
    expectStatus(await postIntake("wh_0000000000000000000000", { json: { a: "1" }, key: "x" }), 404, "NOT_FOUND");
    expectStatus(await postIntake("not-an-id", { json: { a: "1" } }), 404, "NOT_FOUND");
    const t = await target("deleted");
    const url = `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`;
    await api("DELETE", url, { token: t.owner.token });
    expect((await api("DELETE", `${url}?permanent=true`, { token: t.owner.token })).status).toBe(200);
    expectStatus(await postIntake(t.webhook, { json: { a: "1" } }), 404, "NOT_FOUND");
  });

  test("a rotated secret: the old one is 401 at once, the new one works", async () => {
    const t = await target("rotate");
    accepted(await postIntake(t.webhook, { json: { a: "1" } }));
    const rotated = await api("POST", `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}/rotate-secret`, { token: t.owner.token });
    const fresh = rotated.body.data.secretKey as string;
    expectStatus(await postIntake(t.webhook, { json: { a: "2" } }), 401, "WEBHOOK_KEY_INVALID");
    accepted(await postIntake(t.webhook, { json: { a: "3" }, key: fresh }));
  });

  test("the order of checks: 404, then the body (415, 413, 400), then the secret (401), then 410, then 403", async () => {
    const t = await target("order");
    const noKey = { key: null } as const;
    // Unknown webhook: 404 whatever the body.
    expectStatus(await postIntake("wh_0000000000000000000000", { raw: "x", contentType: "text/plain" }), 404, "NOT_FOUND");
    // Body problems come before the secret: the sender learns what is wrong with its payload.
    expectStatus(await postIntake(t.webhook, { ...noKey, raw: "x", contentType: "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectStatus(await postIntake(t.webhook, { ...noKey, json: { a: "x".repeat(300_000) } }), 413, "PAYLOAD_TOO_LARGE");
    expectStatus(await postIntake(t.webhook, { ...noKey, raw: "{", contentType: "application/json" }), 400, "INVALID_BODY");
    expectStatus(await postIntake(t.webhook, { ...noKey, json: {} }), 400, "NO_DATA_FIELDS");
    expectStatus(await postIntake(t.webhook, { ...noKey, json: { a: "x".repeat(10_001) } }), 400, "FIELD_VALUE_TOO_LONG");
    // Then the secret, before any state: without it nobody learns whether a webhook is archived.
    await updateWebhook(t, { isEnabled: false });
    await api("DELETE", `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`, { token: t.owner.token });
    await updateSite(t.owner, t.siteId, { isActive: false });
    expectStatus(await postIntake(t.webhook, { ...noKey, json: { a: "1" } }), 401, "WEBHOOK_KEY_REQUIRED");
    expectStatus(await postIntake(t.webhook, { json: { a: "1" }, key: "wrong" }), 401, "WEBHOOK_KEY_INVALID");
    // Archived before disabled before an inactive site.
    expectStatus(await postIntake(t.webhook, { json: { a: "1" } }), 410, "WEBHOOK_ARCHIVED");
    await updateWebhook(t, { restore: true });
    expectStatus(await postIntake(t.webhook, { json: { a: "1" } }), 403, "WEBHOOK_DISABLED");
    await updateWebhook(t, { isEnabled: true });
    expectStatus(await postIntake(t.webhook, { json: { a: "1" } }), 403, "SITE_INACTIVE");
    // A bad redirect of a refused request is not reached: the state answers first.
    expectStatus(await postIntake(t.webhook, { json: { a: "1", _redirect: "nope" } }), 403, "SITE_INACTIVE");
    await expectNothingStored(t);
  });

  test("GET ping: 200 for an active webhook, no secret needed; other states answer as a POST would", async () => {
    const t = await target("ping", { name: "Reachable" });
    const ok = await api("GET", intakePath(t.webhook.id));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, webhook: "Reachable", status: "active" });
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    // A wrong secret changes nothing: the ping never reads it. A ping stores nothing.
    expect((await api("GET", `${intakePath(t.webhook.id)}?key=wrong`)).status).toBe(200);
    expect(await webhookItem(t.webhook.id)).toMatchObject({ submissionCount: 0, formId: null });

    await updateWebhook(t, { isEnabled: false });
    expectStatus(await api("GET", intakePath(t.webhook.id)), 403, "WEBHOOK_DISABLED");
    await updateWebhook(t, { isEnabled: true });
    await updateSite(t.owner, t.siteId, { isActive: false });
    expectStatus(await api("GET", intakePath(t.webhook.id)), 403, "SITE_INACTIVE");
    await updateSite(t.owner, t.siteId, { isActive: true });
    const url = `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`;
    await api("DELETE", url, { token: t.owner.token });
    const archived = await api("GET", intakePath(t.webhook.id));
    expectStatus(archived, 410, "WEBHOOK_ARCHIVED");
    expect(archived.headers.get("access-control-allow-origin")).toBe("*");
    await api("DELETE", `${url}?permanent=true`, { token: t.owner.token });
    expectStatus(await api("GET", intakePath(t.webhook.id)), 404, "NOT_FOUND");
    expectStatus(await api("GET", intakePath("wh_0000000000000000000000")), 404, "NOT_FOUND");
  });

  test("CORS: every answer carries access-control-allow-origin: *, and the preflight is answered", async () => {
    const t = await target("cors");
    const origin = { origin: "https://static.example.org" };
    const ok = await postIntake(t.webhook, { json: { a: "1" }, headers: origin });
    const redirect = await postIntake(t.webhook, { json: { a: "1", _redirect: "https://example.org/thanks" }, headers: origin });
    const errors = await Promise.all([
      postIntake(t.webhook, { json: { a: "1" }, key: null, headers: origin }),
      postIntake(t.webhook, { raw: "x", contentType: "text/plain", headers: origin }),
      postIntake(t.webhook, { raw: "{", contentType: "application/json", headers: origin }),
      postIntake(t.webhook, { json: { a: "x".repeat(300_000) }, headers: origin }),
      postIntake(t.webhook, { json: { a: "1", _redirect: "ftp://x" }, headers: origin }),
      postIntake("wh_0000000000000000000000", { json: { a: "1" }, key: "x", headers: origin }),
    ]);
    expect([ok.status, redirect.status, ...errors.map((r) => r.status)]).toEqual([200, 303, 401, 415, 400, 413, 400, 404]);
    for (const res of [ok, redirect, ...errors]) expect(res.headers.get("access-control-allow-origin")).toBe("*");

    const preflight = await api("OPTIONS", intakePath(t.webhook.id), {
      headers: { ...origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-webhook-key,idempotency-key" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.text).toBe("");
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")?.split(/,\s*/).sort()).toEqual(["GET", "OPTIONS", "POST"]);
    expect(preflight.headers.get("access-control-allow-headers")?.split(/,\s*/).sort()).toEqual(["content-type", "idempotency-key", "x-webhook-key"]);
    expect(Number(preflight.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    // The preflight of an unknown webhook is answered too (it reads nothing).
    expect((await api("OPTIONS", intakePath("wh_unknown"))).status).toBe(204);
  });
});

describe("control fields", () => {
  test("_redirect: 303 with ref=<referenceId> appended, the target's own query and fragment kept as sent", async () => {
    const t = await target("redirect");
    const res = await postIntake(t.webhook, {
      form: { name: "Ada", _redirect: "https://example.com/thanks?utm_source=a%20b&flag&x=1+2#top" },
    });
    expect(res.status).toBe(303);
    expect(res.text).toBe("");
    const location = res.headers.get("location") ?? "";
    const match = /^https:\/\/example\.com\/thanks\?utm_source=a%20b&flag&x=1\+2&ref=([A-Z0-9]+-\d+)#top$/.exec(location);
    expect(match).not.toBeNull();
    const form = await linkedForm(t.webhook.id);
    const [stored] = await formSubmissions(form.id);
    expect(stored?.referenceId).toBe(match?.[1]);
    expect(stored?.data).toEqual({ name: "Ada" });
    // A target without a query gets one; a `ref` of its own is replaced, not duplicated.
    const plain = await postIntake(t.webhook, { form: { name: "B", _redirect: "https://example.com/done" } });
    expect(plain.headers.get("location")).toMatch(/^https:\/\/example\.com\/done\?ref=[A-Z0-9]+-\d+$/);
    const own = await postIntake(t.webhook, { form: { name: "C", _redirect: "https://example.com/done?ref=campaign&a=1" } });
    expect(own.headers.get("location")).toMatch(/^https:\/\/example\.com\/done\?a=1&ref=[A-Z0-9]+-\d+$/);
  });

  test("a blank _redirect (an empty hidden input) is no redirect: 200", async () => {
    const t = await target("blank-redirect");
    const res = await postIntake(t.webhook, { form: { name: "Ada", _redirect: "  ", _next: "" } });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  test("_next is accepted as _redirect (the name other form backends use); _redirect wins when both are sent", async () => {
    const t = await target("next");
    const next = await postIntake(t.webhook, { form: { name: "Ada", _next: "https://example.com/next" } });
    expect(next.status).toBe(303);
    expect(next.headers.get("location")).toMatch(/^https:\/\/example\.com\/next\?ref=/);
    const both = await postIntake(t.webhook, { form: { name: "Ada", _next: "https://example.com/next", _redirect: "https://example.com/redirect" } });
    expect(both.headers.get("location")).toMatch(/^https:\/\/example\.com\/redirect\?ref=/);
  });

  test.each([
    ["a relative path", "/thanks"],
    ["a protocol-relative URL", "//evil.example/x"],
    ["javascript:", "javascript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["ftp:", "ftp://example.com/file"],
    ["credentials in the URL", "https://user:pass@example.com/"],
    ["not a URL", "thanks page"],
  ])("_redirect with %s is 400 INVALID_REDIRECT and nothing is stored", async (_label, redirect) => {
    const t = await target("bad-redirect");
    expectStatus(await postIntake(t.webhook, { form: { name: "Ada", _redirect: redirect } }), 400, "INVALID_REDIRECT");
    expectStatus(await postIntake(t.webhook, { form: { name: "Ada", _next: redirect } }), 400, "INVALID_REDIRECT");
    await expectNothingStored(t);
    expect((await webhookItem(t.webhook.id))?.formId).toBeNull();
  });

  test("when the site has a domain, the redirect must be on it or a subdomain, and nothing is stored otherwise", async () => {
    const t = await target("domain");
    await updateSite(t.owner, t.siteId, { domain: "example.com" });
    for (const ok of ["https://example.com/thanks", "https://www.example.com/thanks", "http://a.b.example.com/", "https://EXAMPLE.com/x"]) {
      const res = await postIntake(t.webhook, { form: { name: "Ada", _redirect: ok } });
      expect([ok, res.status]).toEqual([ok, 303]);
    }
    const before = (await webhookItem(t.webhook.id))?.submissionCount;
    for (const bad of ["https://evil.com/", "https://example.com.evil.com/", "https://notexample.com/", "https://example.co/"]) {
      expectStatus(await postIntake(t.webhook, { form: { name: "Ada", _redirect: bad } }), 400, "INVALID_REDIRECT");
    }
    expect((await webhookItem(t.webhook.id))?.submissionCount).toBe(before);
    const form = await linkedForm(t.webhook.id);
    expect(await formSubmissions(form.id)).toHaveLength(4);
  });

  test("control fields are never stored as data; _replyto and _subject are kept in metadata for notifications", async () => {
    const t = await target("controls");
    const { stored } = await submitted(
      await postIntake(t.webhook, {
        form: {
          email: "ada@example.com",
          _form: "Named",
          _hp: "",
          _gotcha: "",
          _replyto: "ada@example.com",
          _subject: "New lead",
          _ts: String(Date.now() - 60_000),
          _charset_: "UTF-8",
          _anything: "x",
        },
      }),
    );
    expect(stored.data).toEqual({ email: "ada@example.com" });
    expect(stored.metadata).toMatchObject({ replyTo: "ada@example.com", subject: "New lead" });
    expect(JSON.stringify(stored.data)).not.toContain("_");
  });

  test("_form names the auto-created form; without it the webhook's name does", async () => {
    const named = await target("form-name", { name: "Landing page" });
    accepted(await postIntake(named.webhook, { form: { email: "a@example.com", _form: "Spring campaign" } }));
    expect((await linkedForm(named.webhook.id)).name).toBe("Spring campaign");
    // Once the form exists, _form does not rename it.
    accepted(await postIntake(named.webhook, { form: { email: "b@example.com", _form: "Other" } }));
    expect((await linkedForm(named.webhook.id)).name).toBe("Spring campaign");

    const unnamed = await target("form-default", { name: "Landing page" });
    accepted(await postIntake(unnamed.webhook, { form: { email: "a@example.com" } }));
    expect((await linkedForm(unnamed.webhook.id)).name).toBe("Landing page");
  });

  test.each(["_hp", "_gotcha"])("honeypot %s: the answer looks like any success; the submission is flagged silently", async (field) => {
    const t = await target("honeypot");
    const clean = await postIntake(t.webhook, { form: { email: "a@example.com", [field]: "" }, headers: BROWSER });
    const caught = await postIntake(t.webhook, { form: { email: "b@example.com", [field]: "http://spam.example" }, headers: BROWSER });
    expect(caught.status).toBe(clean.status);
    expect(Object.keys(caught.body).sort()).toEqual(Object.keys(clean.body).sort());
    expect(caught.body.fieldsMapped).toEqual(clean.body.fieldsMapped);
    const stored = await storedSubmission(caught.body.submissionId);
    expect(stored?.spam.isSpam).toBe(true);
    expect(stored?.spam.signals.map((s) => s.name)).toContain("honeypot");
    expect(stored?.data).toEqual({ email: "b@example.com" });
    // With a redirect, both are the same 303.
    const redirected = await postIntake(t.webhook, {
      form: { email: "c@example.com", [field]: "x", _redirect: "https://example.com/thanks" },
    });
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get("location")).toMatch(/^https:\/\/example\.com\/thanks\?ref=[A-Z0-9]+-\d+$/);
  });
});

describe("forms", () => {
  test("the first submission creates a form with inferred types and links the webhook to it", async () => {
    const t = await target("auto-form", { name: "Website contact" });
    const res = await postIntake(t.webhook, {
      json: {
        name: "Ada Lovelace",
        email: "ada@example.com",
        phone: "+44 20 7946 0958",
        website: "https://ada.example.com",
        birthday: "1815-12-10",
        age: "36",
        message: "Line one\nLine two",
        services: ["design", "build"],
        company: "Analytical Engines Ltd",
      },
    });
    const { result } = await submitted(res);
    const webhook = await webhookItem(t.webhook.id);
    expect(webhook?.formId).toEqual(expect.stringMatching(/^form_/));
    const form = await formItem(webhook?.formId);
    expect(form).toMatchObject({
      name: "Website contact",
      origin: "webhook",
      createdByWebhookId: t.webhook.id,
      siteId: t.siteId,
      orgId: owner.orgId,
      status: "published",
    });
    const types = Object.fromEntries(Object.entries(form?.fields as Record<string, { type: string }>).map(([k, f]) => [k, f.type]));
    expect(types).toEqual({
      name: "name",
      email: "email",
      phone: "phone",
      website: "url",
      birthday: "date",
      age: "number",
      message: "textarea",
      services: "select",
      company: "text",
    });
    expect(form?.fields.email).toEqual({ label: "Email", type: "email", required: false, order: 2 });
    expect(result.fieldsMapped.sort()).toEqual(Object.keys(types).sort());
    const [only] = await formSubmissions(webhook?.formId);
    expect(only?.id).toBe(result.submissionId);
  });

  test("later submissions add their new fields; known ones are matched loosely; fieldsMapped names the fields that got a value", async () => {
    const t = await target("evolve");
    accepted(await postIntake(t.webhook, { json: { email: "a@example.com", first_name: "Ada" } }));
    const second = accepted(await postIntake(t.webhook, { json: { "First Name": "Grace", phone: "+1 555 010 0199" } }));
    expect(second.fieldsMapped.sort()).toEqual(["first_name", "phone"]);
    const form = await linkedForm(t.webhook.id);
    expect(Object.keys(form.fields).sort()).toEqual(["email", "first_name", "phone"]);
    expect(form.fields.phone).toMatchObject({ type: "phone", order: 3 });
    const stored = await storedSubmission(second.submissionId);
    expect(stored?.data).toEqual({ first_name: "Grace", phone: "+1 555 010 0199" });
  });

  test("a pre-assigned form: keys map by key, then loose label, then type; unmatched keys are kept but never added to it", async () => {
    const t = await target("preassigned");
    const form = await insertForm(owner, t.siteId, {
      name: "Builder form",
      fields: {
        email: { label: "Email", type: "email", required: true, order: 1 },
        full_name: { label: "Your full name", type: "name", required: false, order: 2 },
        phone: { label: "Phone", type: "phone", required: false, order: 3 },
      },
    });
    await updateWebhook(t, { formId: form.id });
    const res = accepted(
      await postIntake(t.webhook, {
        json: { "your-full-name": "Ada Lovelace", contact: "ada@example.com", mobile: "+44 20 7946 0958", utm_source: "newsletter" },
      }),
    );
    expect(res.fieldsMapped.sort()).toEqual(["email", "full_name", "phone"]);
    const stored = await storedSubmission(res.submissionId);
    expect(stored?.formId).toBe(form.id);
    expect(stored?.data).toEqual({
      full_name: "Ada Lovelace",
      email: "ada@example.com",
      phone: "+44 20 7946 0958",
      utm_source: "newsletter",
    });
    const after = await formItem(form.id);
    expect(Object.keys(after?.fields).sort()).toEqual(["email", "full_name", "phone"]);
    expect(after?.updatedAt).toBe(form.updatedAt);
    // The link stays: no auto form was created.
    expect((await webhookItem(t.webhook.id))?.formId).toBe(form.id);
  });

  test("an exact key wins over a loose match; a loose duplicate is kept under its own name", async () => {
    const t = await target("collide");
    const form = await insertForm(owner, t.siteId, {
      fields: { email: { label: "Email", type: "email", required: true, order: 1 } },
    });
    await updateWebhook(t, { formId: form.id });
    const res = accepted(await postIntake(t.webhook, { json: { "E-mail": "first@example.com", email: "exact@example.com" } }));
    const stored = await storedSubmission(res.submissionId);
    expect(stored?.data.email).toBe("exact@example.com");
    expect(Object.values(stored?.data ?? {})).toContain("first@example.com");
    expect(res.fieldsMapped).toEqual(["email"]);
  });
});

describe("stored submissions", () => {
  test("referenceId is <prefix>-<number>: the site's prefix, numbers per site shared by its webhooks", async () => {
    const t = await target("Acme Corp");
    const other = await siblingWebhook(t);
    const a = accepted(await postIntake(t.webhook, { json: { a: "1" } }));
    const b = accepted(await postIntake(other.webhook, { json: { a: "2" } }));
    expect(a.referenceId).toMatch(/^ACME-\d+$/);
    const n = Number(a.referenceId.split("-")[1]);
    expect(b.referenceId).toBe(`ACME-${n + 1}`);
    await updateSite(t.owner, t.siteId, { referencePrefix: "LEAD" });
    const c = accepted(await postIntake(t.webhook, { json: { a: "3" } }));
    expect(c.referenceId).toBe(`LEAD-${n + 2}`);
    // Another site counts on its own.
    const elsewhere = await target("Acme Corp");
    expect(accepted(await postIntake(elsewhere.webhook, { json: { a: "1" } })).referenceId).toBe("ACME-1");
  });

  test("the webhook's submissionCount and lastReceivedAt follow every accepted submission, and only those", async () => {
    const t = await target("counters");
    const before = Date.now();
    accepted(await postIntake(t.webhook, { json: { a: "1" } }));
    expectStatus(await postIntake(t.webhook, { json: { a: "1" }, key: "wrong" }), 401);
    const second = accepted(await postIntake(t.webhook, { json: { a: "2" } }));
    const item = await webhookItem(t.webhook.id);
    expect(item?.submissionCount).toBe(2);
    expect(Date.parse(item?.lastReceivedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(item?.lastReceivedAt).toBe((await storedSubmission(second.submissionId))?.createdAt);
    const view = await api("GET", `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`, { token: t.owner.token });
    expect(view.body.data).toMatchObject({ submissionCount: 2, lastReceivedAt: item?.lastReceivedAt });
  });

  test("Idempotency-Key: a retried POST gets the first result and stores nothing; another key stores again", async () => {
    const t = await target("idempotency");
    const key = { "idempotency-key": "order-4711-attempt" };
    const first = accepted(await postIntake(t.webhook, { json: { a: "1" }, headers: key }));
    const retry = accepted(await postIntake(t.webhook, { json: { a: "1" }, headers: key }));
    expect(retry).toEqual(first);
    // The key decides, not the body: a retry whose body changed still gets the first result.
    expect(accepted(await postIntake(t.webhook, { json: { a: "changed" }, headers: key }))).toEqual(first);
    // The marker: keyed by the key's hash, kept 24 hours (TTL), holding the first result.
    const marker = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.idempotency(t.webhook.id, sha256Hex("order-4711-attempt")) }))).Item;
    expect({ success: true, ...marker?.result }).toEqual(first);
    expect(marker?.ttl - Date.now() / 1000).toBeGreaterThan(24 * 3600 - 120);
    expect(marker?.ttl - Date.now() / 1000).toBeLessThanOrEqual(24 * 3600);
    const other = accepted(await postIntake(t.webhook, { json: { a: "1" }, headers: { "idempotency-key": "another" } }));
    expect(other.submissionId).not.toBe(first.submissionId);
    expect((await webhookItem(t.webhook.id))?.submissionCount).toBe(2);
    expect(await formSubmissions((await linkedForm(t.webhook.id)).id)).toHaveLength(2);
    // The same key on another webhook is another request.
    const sibling = await siblingWebhook(t);
    expect(accepted(await postIntake(sibling.webhook, { json: { a: "1" }, headers: key })).submissionId).not.toBe(first.submissionId);
  });

  test("Idempotency-Key with _redirect: the retry is redirected to the first reference", async () => {
    const t = await target("idem-redirect");
    const headers = { "idempotency-key": "k1" };
    const first = await postIntake(t.webhook, { form: { a: "1", _redirect: "https://example.com/t" }, headers });
    const retry = await postIntake(t.webhook, { form: { a: "1", _redirect: "https://example.com/t" }, headers });
    expect(first.status).toBe(303);
    expect(retry.headers.get("location")).toBe(first.headers.get("location"));
    // A retry may not redirect anywhere the site's domain rule forbids.
    await updateSite(t.owner, t.siteId, { domain: "example.com" });
    expectStatus(await postIntake(t.webhook, { form: { a: "1", _redirect: "https://evil.example.net/" }, headers }), 400, "INVALID_REDIRECT");
  });

  test("an Idempotency-Key over 255 characters is 400 INVALID_IDEMPOTENCY_KEY; 255 are accepted", async () => {
    const t = await target("idem-long");
    expectStatus(await postIntake(t.webhook, { json: { a: "1" }, headers: { "idempotency-key": "k".repeat(256) } }), 400, "INVALID_IDEMPOTENCY_KEY");
    await expectNothingStored(t);
    accepted(await postIntake(t.webhook, { json: { a: "1" }, headers: { "idempotency-key": "k".repeat(255) } }));
  });
});
