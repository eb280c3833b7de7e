import { DEFAULT_CONFIRMATION } from "../../../lib/notifications/confirmation";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { CHROMIUM_HEADERS, postIntake, updateSite } from "../../support/intake";
import { createHook, formOfHook, submitTo } from "../../support/submissions";

/**
 * A form's edits guarded by the version the client read (`ifUpdatedAt`), and the form's own
 * redirect (`settings.redirectUrl`): how it is checked, and how intake uses it.
 */

const formPath = (formId: string) => `/api/v1/forms/${formId}`;

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("form-settings");
  siteId = await createSite(owner);
});

async function newForm(body: Record<string, unknown> = {}, site = siteId) {
  const res = await api("POST", `/api/v1/sites/${site}/forms`, {
    token: owner.token,
    body: { name: "Contact", fields: [{ key: "email", label: "Email", type: "email" }], ...body },
  });
  if (res.status !== 201) throw new Error(`form creation failed: ${res.status} ${res.text}`);
  return res.body.data.form as { id: string; updatedAt: string; [key: string]: any };
}

const put = (formId: string, body: Record<string, unknown>) => api("PUT", formPath(formId), { token: owner.token, body });

describe("ifUpdatedAt: an edit of the version the client read", () => {
  test("the version read saves; a stale one is 409 CONFLICT and writes nothing", async () => {
    const form = await newForm();
    const first = await put(form.id, { name: "Mine", ifUpdatedAt: form.updatedAt });
    expect(first.status).toBe(200);
    expect(first.body.data.form.name).toBe("Mine");

    // A second editor still holding the first version.
    const stale = await put(form.id, { name: "Theirs", fields: [], ifUpdatedAt: form.updatedAt });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("CONFLICT");
    const read = await api("GET", formPath(form.id), { token: owner.token });
    expect(read.body.data.form).toEqual(expect.objectContaining({ name: "Mine", fieldCount: 1 }));
    expect(read.body.data.form.updatedAt).toBe(first.body.data.form.updatedAt);

    // Reloaded, the edit goes through; without ifUpdatedAt the API keeps its old behaviour.
    const again = await put(form.id, { name: "Theirs", ifUpdatedAt: read.body.data.form.updatedAt });
    expect(again.status).toBe(200);
    expect((await put(form.id, { name: "Anyone" })).status).toBe(200);
  });

  test("intake growing a webhook form's schema makes an edit of the older version a conflict", async () => {
    const hook = await createHook(owner, siteId, { name: "Grows" });
    await submitTo(hook, { email: "a@example.com" });
    const formId = await formOfHook(owner, siteId, hook);
    const before = (await api("GET", formPath(formId), { token: owner.token })).body.data.form;
    await submitTo(hook, { email: "b@example.com", phone: "+44 20 7946 0000" });
    const res = await put(formId, { fields: before.fields, ifUpdatedAt: before.updatedAt });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("CONFLICT");
    const after = (await api("GET", formPath(formId), { token: owner.token })).body.data.form;
    expect(after.fields.map((f: { key: string }) => f.key)).toEqual(["email", "phone"]);
  });

  test.each([
    ["not a timestamp", "yesterday"],
    ["a number", 1_700_000_000],
    ["a date without a time", "2026-01-01"],
  ])("ifUpdatedAt that is %s is 400 VALIDATION_ERROR", async (_, ifUpdatedAt) => {
    const form = await newForm();
    const res = await put(form.id, { name: "x", ifUpdatedAt });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
  });
});

describe("settings.redirectUrl", () => {
  test("is stored, read back, cleared with null, and copied by duplicate", async () => {
    const form = await newForm({ settings: { redirectUrl: "https://www.example.com/thanks?lang=en" } });
    expect(form.settings).toEqual({
      notifyEmails: [],
      redirectUrl: "https://www.example.com/thanks?lang=en",
      confirmation: DEFAULT_CONFIRMATION,
      forwardOnly: false,
    });
    const copy = await api("POST", `${formPath(form.id)}/duplicate`, { token: owner.token });
    expect(copy.body.data.form.settings.redirectUrl).toBe("https://www.example.com/thanks?lang=en");

    // Given keys replace the stored ones; the others stay.
    const emails = await put(form.id, { settings: { notifyEmails: ["a@example.com"] } });
    expect(emails.body.data.form.settings).toEqual({
      notifyEmails: ["a@example.com"],
      redirectUrl: "https://www.example.com/thanks?lang=en",
      confirmation: DEFAULT_CONFIRMATION,
      forwardOnly: false,
    });
    const cleared = await put(form.id, { settings: { redirectUrl: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.form.settings).toEqual({
      notifyEmails: ["a@example.com"],
      redirectUrl: null,
      confirmation: DEFAULT_CONFIRMATION,
      forwardOnly: false,
    });
  });

  test.each([
    ["a relative path", "/thanks"],
    ["a protocol-relative URL", "//evil.example/x"],
    ["javascript:", "javascript:alert(1)"],
    ["ftp:", "ftp://www.example.com/x"],
    ["credentials", "https://user:pw@www.example.com/"],
  ])("%s is 400 VALIDATION_ERROR beside settings.redirectUrl", async (_, redirectUrl) => {
    const form = await newForm();
    const res = await put(form.id, { settings: { redirectUrl } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details).toEqual([
      { path: "settings.redirectUrl", message: expect.stringMatching(/^The redirect URL /) },
    ]);
    expect((await api("GET", formPath(form.id), { token: owner.token })).body.data.form.settings.redirectUrl).toBeNull();
  });

  test("empty, too long, or not a string is 400", async () => {
    const form = await newForm();
    for (const redirectUrl of ["", " ", `https://www.example.com/${"a".repeat(2048)}`, 42, ["https://www.example.com/"]]) {
      const res = await put(form.id, { settings: { redirectUrl } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
  });

  test("on a site with a domain it must point to the domain or a subdomain, at creation too", async () => {
    const site = await createSite(owner, "Domain site");
    await updateSite(owner, site, { domain: "example.com" });
    const refused = await api("POST", `/api/v1/sites/${site}/forms`, {
      token: owner.token,
      body: { name: "x", settings: { redirectUrl: "https://example.com.evil.net/thanks" } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { path: "settings.redirectUrl", message: "The redirect URL must point to example.com or one of its subdomains" },
    ]);
    const form = await newForm({ settings: { redirectUrl: "https://www.example.com/thanks" } }, site);
    expect(form.settings.redirectUrl).toBe("https://www.example.com/thanks");
    expect((await put(form.id, { settings: { redirectUrl: "https://notexample.com/" } })).status).toBe(400);
    expect((await put(form.id, { settings: { redirectUrl: "http://example.com/done" } })).status).toBe(200);
  });
});

describe("intake and the form's redirect", () => {
  /** A site with a domain, a builder form with a redirect, and a browser source feeding it. */
  async function formWithRedirect(redirectUrl: string) {
    const site = await createSite(owner, "Redirecting site");
    await updateSite(owner, site, { domain: "example.com" });
    const form = await newForm({ settings: { redirectUrl } }, site);
    const hook = await createHook(owner, site, { name: "Page", source: "generic", formId: form.id });
    return { site, form, hook };
  }

  const browserPost = (hook: { id: string; secretKey: string }, form: [string, string][]) =>
    postIntake(hook, { form, headers: { ...CHROMIUM_HEADERS }, exactHeaders: true });

  test("a browser navigation without _redirect goes to the form's redirect, with ref", async () => {
    const { hook } = await formWithRedirect("https://www.example.com/thanks?lang=en#top");
    const res = await browserPost(hook, [["email", "ada@example.com"]]);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^https:\/\/www\.example\.com\/thanks\?lang=en&ref=[A-Z0-9]+-\d+#top$/);
  });

  test("_redirect wins over the form's; a script's fetch() gets its JSON answer", async () => {
    const { hook } = await formWithRedirect("https://www.example.com/thanks");
    const own = await browserPost(hook, [
      ["email", "ada@example.com"],
      ["_redirect", "https://shop.example.com/done"],
    ]);
    expect(own.status).toBe(303);
    expect(own.headers.get("location")).toMatch(/^https:\/\/shop\.example\.com\/done\?ref=/);

    const json = await postIntake(hook, { json: { email: "bob@example.com" }, headers: { "sec-fetch-mode": "cors" } });
    expect(json.status).toBe(200);
    expect(json.body).toEqual(expect.objectContaining({ success: true, referenceId: expect.any(String) }));
  });

  test("a redirect the site's domain no longer allows gives the thank-you page, and the submission is stored", async () => {
    const { site, hook, form } = await formWithRedirect("https://www.example.com/thanks");
    await updateSite(owner, site, { domain: "example.org" });
    const res = await browserPost(hook, [["email", "ada@example.com"]]);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const list = await api("GET", `${formPath(form.id)}/submissions`, { token: owner.token });
    expect(list.body.data.submissions).toHaveLength(1);
  });
});
