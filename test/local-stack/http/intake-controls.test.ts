import { type Account, signupOwner } from "../../support/api";
import { receivedSettles } from "../../support/bookkeeping";
import {
  accepted,
  BROWSER,
  expectNothingStored,
  expectStatus,
  formSubmissions,
  intakeTarget,
  linkedForm,
  postIntake,
  storedSubmission,
  submitted,
  updateSite,
  webhookItem,
} from "../../support/intake";

let owner: Account;
beforeAll(async () => {
  owner = await signupOwner("intake");
});

const target = (label: string, webhook?: Record<string, unknown>) => intakeTarget(label, webhook, owner);

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
    const both = await postIntake(t.webhook, {
      form: { name: "Ada", _next: "https://example.com/next", _redirect: "https://example.com/redirect" },
    });
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
    for (const ok of [
      "https://example.com/thanks",
      "https://www.example.com/thanks",
      "http://a.b.example.com/",
      "https://EXAMPLE.com/x",
    ]) {
      const res = await postIntake(t.webhook, { form: { name: "Ada", _redirect: ok } });
      expect([ok, res.status]).toEqual([ok, 303]);
    }
    for (const bad of ["https://evil.com/", "https://example.com.evil.com/", "https://notexample.com/", "https://example.co/"]) {
      expectStatus(await postIntake(t.webhook, { form: { name: "Ada", _redirect: bad } }), 400, "INVALID_REDIRECT");
    }
    // The four redirects that passed are counted; the refused ones are not.
    await receivedSettles(t.webhook.id, 4);
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

  test.each(["_hp", "_gotcha", "_honey"])(
    "honeypot %s: the answer looks like any success; the submission is flagged silently",
    async (field) => {
      const t = await target("honeypot");
      const clean = await postIntake(t.webhook, { form: { email: "a@example.com", [field]: "" }, headers: BROWSER });
      const caught = await postIntake(t.webhook, {
        form: { email: "b@example.com", [field]: "http://spam.example" },
        headers: BROWSER,
      });
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
    },
  );
});
