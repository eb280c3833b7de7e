import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { sha256Hex } from "../../../lib/ids";
import { keys } from "../../../lib/store/keys";
import { type Account, signupOwner } from "../../support/api";
import { receivedSettles } from "../../support/bookkeeping";
import {
  accepted,
  adsLead,
  expectStatus,
  formSubmissions,
  intakeTarget,
  linkedForm,
  postIntake,
  siblingWebhook,
  storedSubmission,
} from "../../support/intake";

/**
 * The advertising platform's lead webhook (Google Ads lead forms): one JSON POST per lead with
 * the secret in the body, 64-bit ids, answers keyed by column_id, lead_id as the dedup key.
 */
let owner: Account;
beforeAll(async () => {
  owner = await signupOwner("ads");
});

const adsTarget = (label: string) => intakeTarget(label, { name: "Google Ads lead form", source: "partner_ads" }, owner);

/** Sends a lead with its secret in the body only, as the platform does. */
const sendLead = (webhook: { id: string; secretKey: string }, lead: Record<string, unknown>, keyField = "google_key") =>
  postIntake(webhook, { json: { ...lead, [keyField]: webhook.secretKey }, key: null });

describe("the advertising-platform lead payload", () => {
  test("a sample lead (full name, phone, email, company; a test lead) is mapped by column_id, ids go to metadata", async () => {
    const t = await adsTarget("ads-sample");
    const lead = adsLead({ lead_submit_time: "2026-11-21T10:15:30Z", asset_group_id: 50000000000, lead_stage: "NEW" });
    const res = await sendLead(t.webhook, lead);
    const result = accepted(res);
    expect(result.fieldsMapped.sort()).toEqual(["company", "email", "full_name", "phone"]);
    const stored = await storedSubmission(result.submissionId);
    expect(stored?.data).toEqual({
      full_name: "FirstName LastName",
      phone: "+16505550123",
      email: "test@example.com",
      company: "CompanyName",
    });
    expect(stored?.metadata).toMatchObject({
      source: "partner_ads",
      isTest: true,
      ads: {
        lead_id: lead.lead_id,
        campaign_id: "12345678901",
        form_id: "40000000000",
        gcl_id: "EAIaIQobChMI-test-gclid",
        adgroup_id: "20000000000",
        creative_id: "30000000000",
        asset_group_id: "50000000000",
        lead_submit_time: "2026-11-21T10:15:30Z",
        lead_stage: "NEW",
        api_version: "1.0",
        is_test: true,
      },
    });
    // The secret never lands anywhere in the stored item.
    expect(JSON.stringify(stored)).not.toContain(t.webhook.secretKey);
    // The auto-created form takes its labels from column_name and its types from the columns.
    const form = await linkedForm(t.webhook.id);
    expect(form.name).toBe("Google Ads lead form");
    expect(form.fields).toMatchObject({
      full_name: { label: "Full Name", type: "name" },
      phone: { label: "User Phone", type: "phone" },
      email: { label: "User Email", type: "email" },
      company: { label: "Company Name", type: "text" },
    });
    // Server-to-server: no browser spam signals (no referer, no browser user agent) apply.
    expect(stored?.spam.isSpam).toBe(false);
  });

  test("64-bit ids are stored exactly, never rounded through a double", async () => {
    const t = await adsTarget("ads-64bit");
    const leadId = `lead-${Date.now()}`;
    // Written by hand: JSON.stringify of a JavaScript number could not even express these.
    const raw =
      `{"lead_id":"${leadId}","api_version":"1.0","form_id":7100000001234567891,"campaign_id":9007199254740993,` +
      `"adgroup_id":18446744073709551615,"creative_id":-9223372036854775808,"asset_group_id":12345,` +
      `"gcl_id":"CL-1","google_key":"${t.webhook.secretKey}","is_test":false,` +
      `"user_column_data":[{"column_name":"Full Name","string_value":"Ada Lovelace","column_id":"FULL_NAME"},` +
      `{"column_id":"POSTAL_CODE","string_value":"NW1 6XE"}],"custom_number":1234567890123456789}`;
    const result = accepted(await postIntake(t.webhook, { raw, contentType: "application/json", key: null }));
    const stored = await storedSubmission(result.submissionId);
    expect(stored?.metadata.ads).toMatchObject({
      lead_id: leadId,
      form_id: "7100000001234567891",
      campaign_id: "9007199254740993",
      adgroup_id: "18446744073709551615",
      creative_id: "-9223372036854775808",
      asset_group_id: "12345",
      is_test: false,
    });
    expect(stored?.metadata.isTest).toBe(false);
    expect(stored?.data).toMatchObject({
      full_name: "Ada Lovelace",
      postal_code: "NW1 6XE",
      custom_number: "1234567890123456789",
    });
  });

  test.each(["google_key", "Google_key", "partner_key"])("the secret is accepted in the body as %s", async (field) => {
    const t = await adsTarget("ads-key");
    accepted(await sendLead(t.webhook, adsLead(), field));
  });

  test("a lead without a secret is 401 WEBHOOK_KEY_REQUIRED, a wrong one 401 WEBHOOK_KEY_INVALID; ?key= and the header work too", async () => {
    const t = await adsTarget("ads-auth");
    expectStatus(await postIntake(t.webhook, { json: adsLead(), key: null }), 401, "WEBHOOK_KEY_REQUIRED");
    expectStatus(
      await postIntake(t.webhook, { json: { ...adsLead(), google_key: "wrong" }, key: null }),
      401,
      "WEBHOOK_KEY_INVALID",
    );
    expectStatus(
      await postIntake(t.webhook, { json: { ...adsLead(), google_key: 12345 }, key: null }),
      401,
      "WEBHOOK_KEY_REQUIRED",
    );
    accepted(await postIntake(t.webhook, { json: adsLead() }));
    accepted(await postIntake(t.webhook, { json: adsLead(), key: null, headers: { "x-webhook-key": t.webhook.secretKey } }));
    await receivedSettles(t.webhook.id, 2);
  });

  test("the platform's other column ids and custom questions map to fields and never fail", async () => {
    const t = await adsTarget("ads-columns");
    const columns = [
      { column_name: "First Name", string_value: "Ada", column_id: "FIRST_NAME" },
      { column_name: "Last Name", string_value: "Lovelace", column_id: "LAST_NAME" },
      { column_name: "Work Email", string_value: "ada@engines.example", column_id: "WORK_EMAIL" },
      { column_name: "Work Phone", string_value: "+44 20 7946 0000", column_id: "WORK_PHONE" },
      { column_name: "Job Title", string_value: "Analyst", column_id: "JOB_TITLE" },
      { column_name: "Street address", string_value: "12 St James's Square", column_id: "STREET_ADDRESS" },
      { column_name: "City", string_value: "London", column_id: "CITY" },
      { column_name: "Region", string_value: "Greater London", column_id: "REGION" },
      { column_name: "State", string_value: "N/A", column_id: "STATE" },
      { column_name: "Country", string_value: "GB", column_id: "COUNTRY" },
      { column_name: "Vehicle model", string_value: "Difference Engine", column_id: "VEHICLE_MODEL" },
      { column_name: "Government id", string_value: "123", column_id: "GOVERNMENT_ISSUED_ID_CPF_BR" },
      { column_name: "What is your budget?", string_value: "£10k", column_id: "what_is_your_budget?" },
      // column_name "might not always be populated", and column_id may be missing: never drop an answer.
      { string_value: "no label", column_id: "preferred_contact_time" },
      { column_name: "How did you hear about us", string_value: "a friend" },
      { string_value: "nothing but a value" },
      // Odd shapes must not fail the lead either.
      { column_id: "NUMERIC_ANSWER", string_value: 42 },
      { column_id: "EMPTY_ANSWER" },
      "not an object",
      null,
    ];
    const result = accepted(await sendLead(t.webhook, adsLead({}, columns)));
    const stored = await storedSubmission(result.submissionId);
    expect(stored?.data).toEqual({
      first_name: "Ada",
      last_name: "Lovelace",
      work_email: "ada@engines.example",
      work_phone: "+44 20 7946 0000",
      job_title: "Analyst",
      street_address: "12 St James's Square",
      city: "London",
      region: "Greater London",
      state: "N/A",
      country: "GB",
      vehicle_model: "Difference Engine",
      government_issued_id_cpf_br: "123",
      what_is_your_budget: "£10k",
      preferred_contact_time: "no label",
      how_did_you_hear_about_us: "a friend",
      answer: "nothing but a value",
      numeric_answer: "42",
      empty_answer: "",
    });
    const form = await linkedForm(t.webhook.id);
    expect(form.fields).toMatchObject({
      work_email: { type: "email", label: "Work Email" },
      work_phone: { type: "phone" },
      what_is_your_budget: { type: "text", label: "What is your budget?" },
    });
  });

  test("a lead without is_test is a production lead; unknown top-level fields are kept as data", async () => {
    const t = await adsTarget("ads-prod");
    const lead = adsLead({ lead_stage: "QUALIFIED", new_platform_field: { nested: "x" } });
    delete lead.is_test;
    const stored = await storedSubmission(accepted(await sendLead(t.webhook, lead)).submissionId);
    expect(stored?.metadata.isTest).toBe(false);
    expect(stored?.metadata.ads?.is_test).toBe(false);
    expect(stored?.data["new_platform_field.nested"]).toBe("x");
  });

  test("a repeated lead_id answers 200 with the first submission's ids and stores nothing new", async () => {
    const t = await adsTarget("ads-dedupe");
    const lead = adsLead();
    const first = accepted(await sendLead(t.webhook, lead));
    const again = accepted(await sendLead(t.webhook, lead));
    // A re-sent lead whose answers changed is still the same lead.
    const changed = accepted(
      await sendLead(t.webhook, { ...lead, user_column_data: [{ column_id: "EMAIL", string_value: "new@example.com" }] }),
    );
    expect(again).toEqual(first);
    expect(changed).toEqual(first);
    // The lead marker: the lead id's hash under the webhook, kept 90 days (TTL).
    const marker = (
      await db().send(new GetCommand({ TableName: tableName(), Key: keys.lead(t.webhook.id, sha256Hex(String(lead.lead_id))) }))
    ).Item;
    expect({ success: true, ...marker?.result }).toEqual(first);
    expect(marker?.ttl - Date.now() / 1000).toBeGreaterThan(90 * 24 * 3600 - 120);
    const form = await linkedForm(t.webhook.id);
    expect(await formSubmissions(form.id)).toHaveLength(1);
    await receivedSettles(t.webhook.id, 1);
    // Another lead is stored; the same lead id on another webhook is another lead there.
    accepted(await sendLead(t.webhook, adsLead()));
    expect(await formSubmissions(form.id)).toHaveLength(2);
    const sibling = await siblingWebhook(t, { name: "Second campaign", source: "partner_ads" });
    expect(accepted(await sendLead(sibling.webhook, lead)).submissionId).not.toBe(first.submissionId);
  });

  test("a repeated lead sent concurrently is stored once; every answer carries the first submission's ids", async () => {
    const t = await adsTarget("ads-concurrent");
    accepted(await sendLead(t.webhook, adsLead()));
    const lead = adsLead();
    const answers = await Promise.all(Array.from({ length: 12 }, () => sendLead(t.webhook, lead)));
    const results = answers.map(accepted);
    expect(new Set(results.map((r) => r.submissionId)).size).toBe(1);
    expect(new Set(results.map((r) => r.referenceId)).size).toBe(1);
    const form = await linkedForm(t.webhook.id);
    const stored = (await formSubmissions(form.id)).filter((s) => s.metadata.ads?.lead_id === lead.lead_id);
    expect(stored.map((s) => s.id)).toEqual([results[0]?.submissionId]);
    await receivedSettles(t.webhook.id, 2);
  });

  test("a lead id of any length is a dedup key (it is hashed into the marker's key)", async () => {
    const t = await adsTarget("ads-long-id");
    const lead = adsLead({ lead_id: `L${"x".repeat(5000)}` });
    const first = accepted(await sendLead(t.webhook, lead));
    expect(accepted(await sendLead(t.webhook, lead))).toEqual(first);
  });

  test("a lead of a webhook whose source is generic is still detected by its shape", async () => {
    const t = await intakeTarget("ads-generic", { name: "generic" }, owner);
    const stored = await storedSubmission(accepted(await sendLead(t.webhook, adsLead())).submissionId);
    expect(stored?.metadata.ads?.lead_id).toEqual(expect.any(String));
    expect(stored?.data.email).toBe("test@example.com");
  });
});
