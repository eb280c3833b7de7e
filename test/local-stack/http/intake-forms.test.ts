import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { sha256Hex } from "../../../lib/ids";
import { keys } from "../../../lib/store/keys";
import { type Account, api, signupOwner } from "../../support/api";
import { receivedSettles } from "../../support/bookkeeping";
import { insertForm } from "../../support/fixtures";
import {
  accepted,
  expectNothingStored,
  expectStatus,
  formItem,
  formSubmissions,
  intakeTarget,
  linkedForm,
  postIntake,
  siblingWebhook,
  storedSubmission,
  submitted,
  updateSite,
  updateWebhook,
  webhookItem,
} from "../../support/intake";

let owner: Account;
beforeAll(async () => {
  owner = await signupOwner("intake");
});

const target = (label: string, webhook?: Record<string, unknown>) => intakeTarget(label, webhook, owner);

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
    const types = Object.fromEntries(
      Object.entries(form?.fields as Record<string, { type: string }>).map(([k, f]) => [k, f.type]),
    );
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
        json: {
          "your-full-name": "Ada Lovelace",
          contact: "ada@example.com",
          mobile: "+44 20 7946 0958",
          utm_source: "newsletter",
        },
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
    // Kept by the bookkeeper from the table stream: settled within seconds of the answers.
    await receivedSettles(t.webhook.id, 2);
    const view = await api("GET", `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`, { token: t.owner.token });
    expect(view.body.data.submissionCount).toBe(2);
    expect(Date.parse(view.body.data.lastReceivedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(view.body.data.lastReceivedAt).toBe((await storedSubmission(second.submissionId))?.createdAt);
  });

  test("Idempotency-Key: a retried POST gets the first result and stores nothing; another key stores again", async () => {
    const t = await target("idempotency");
    const key = { "idempotency-key": "order-4711-attempt" };
    const first = accepted(await postIntake(t.webhook, { json: { a: "1" }, headers: key }));
    const retry = accepted(await postIntake(t.webhook, { json: { a: "1" }, headers: key }));
    expect(retry).toEqual(first);
    // A key names one request: reused for other data it is 422 IDEMPOTENCY_KEY_REUSED, and nothing is
    // stored (as Stripe answers); the same data in another order or encoding is still the retry.
    expectStatus(await postIntake(t.webhook, { json: { a: "changed" }, headers: key }), 422, "IDEMPOTENCY_KEY_REUSED");
    expectStatus(await postIntake(t.webhook, { json: { a: "1", b: "2" }, headers: key }), 422, "IDEMPOTENCY_KEY_REUSED");
    expect(accepted(await postIntake(t.webhook, { form: { a: "1" }, headers: key }))).toEqual(first);
    // The marker: keyed by the key's hash, kept 24 hours (TTL), holding the first result.
    const marker = (
      await db().send(
        new GetCommand({ TableName: tableName(), Key: keys.idempotency(t.webhook.id, sha256Hex("order-4711-attempt")) }),
      )
    ).Item;
    expect({ success: true, ...marker?.result }).toEqual(first);
    expect(marker?.ttl - Date.now() / 1000).toBeGreaterThan(24 * 3600 - 120);
    expect(marker?.ttl - Date.now() / 1000).toBeLessThanOrEqual(24 * 3600);
    const other = accepted(await postIntake(t.webhook, { json: { a: "1" }, headers: { "idempotency-key": "another" } }));
    expect(other.submissionId).not.toBe(first.submissionId);
    await receivedSettles(t.webhook.id, 2);
    expect(await formSubmissions((await linkedForm(t.webhook.id)).id)).toHaveLength(2);
    // The same key on another webhook is another request.
    const sibling = await siblingWebhook(t);
    expect(accepted(await postIntake(sibling.webhook, { json: { a: "1" }, headers: key })).submissionId).not.toBe(
      first.submissionId,
    );
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
    expectStatus(
      await postIntake(t.webhook, { form: { a: "1", _redirect: "https://evil.example.net/" }, headers }),
      400,
      "INVALID_REDIRECT",
    );
  });

  test("an Idempotency-Key over 255 characters is 400 INVALID_IDEMPOTENCY_KEY; 255 are accepted", async () => {
    const t = await target("idem-long");
    expectStatus(
      await postIntake(t.webhook, { json: { a: "1" }, headers: { "idempotency-key": "k".repeat(256) } }),
      400,
      "INVALID_IDEMPOTENCY_KEY",
    );
    await expectNothingStored(t);
    accepted(await postIntake(t.webhook, { json: { a: "1" }, headers: { "idempotency-key": "k".repeat(255) } }));
  });
});
