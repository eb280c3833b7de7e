import { sweepExpired } from "../../../infra/local/ttl-sweeper";
import { deliveryIdFor } from "../../../lib/outbound/payload";
import { queryKey, searchToken } from "../../../lib/search-keys";
import { keys } from "../../../lib/store/keys";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { auditItems } from "../../support/audit-log-items";
import { countsSettle, siteDayItem, webhookCountsItem } from "../../support/bookkeeping";
import { eventually } from "../../support/eventually";
import { type Receiver, startReceiver } from "../../support/outbound-receiver";
import { expireSubmission, itemAt, searchEntriesOf, sentEmailKeysOf, ttlAfter } from "../../support/retention";
import {
  createHook,
  formOfHook,
  type Hook,
  makeSubmission,
  putSubmissions,
  storedItem,
  submitTo,
} from "../../support/submissions";
import { bookkeepingBarrier, pipelineBarrier } from "../pipeline/support/barrier";

/**
 * Retention per form (docs/privacy.md, "Retention") through the whole local stack: the settings
 * on sites and forms, the `ttl` intake and moderation write, expired submissions hidden from
 * every read before anything deletes them, the local TTL sweeper's deletions and what follows a
 * submission out (counts, search entries, emails, deliveries; the site's day stays), and the
 * background job that re-dates a form's submissions after a change.
 */

let owner: Account;
let siteId: string;
let hook: Hook;
let formId: string;
let receiver: Receiver;

beforeAll(async () => {
  owner = await signupOwner("retention");
  siteId = await createSite(owner);
  hook = await createHook(owner, siteId);
  receiver = await startReceiver();
});

afterAll(() => receiver?.close());

const getForm = async (id = formId) => (await api("GET", `/api/v1/forms/${id}`, { token: owner.token })).body.data.form;
const setRetention = (retention: Record<string, unknown>, id = formId, token = owner.token) =>
  api("PUT", `/api/v1/forms/${id}`, { token, body: { retention } });
const getSubmission = (id: string) => api("GET", `/api/v1/submissions/${id}`, { token: owner.token });

/** Waits until the form's latest retention job has finished, and answers the form. */
async function jobFinishes(id = formId, timeoutMs = 20_000) {
  return eventually(
    `retention job of ${id} finished`,
    async () => {
      const form = await getForm(id);
      return form.retentionJob?.status === "finished" ? form : undefined;
    },
    { timeoutMs, intervalMs: 100 },
  );
}

describe("settings", () => {
  test("a site answers the defaults (inbox kept, spam 30 days) and takes new ones for its new forms", async () => {
    const site = await api("GET", `/api/v1/sites/${siteId}`, { token: owner.token });
    expect(site.body.data.site.defaultRetention).toEqual({ inboxDays: null, spamDays: 30 });
    const saved = await api("PUT", `/api/v1/sites/${siteId}`, {
      token: owner.token,
      body: { defaultRetention: { inboxDays: 90 } },
    });
    expect(saved.status).toBe(200);
    // Either value alone: the other keeps its value.
    expect(saved.body.data.site.defaultRetention).toEqual({ inboxDays: 90, spamDays: 30 });
  });

  test("a webhook's auto form and a builder form copy the site's defaults; a builder form may name its own", async () => {
    const first = await submitTo(hook, { email: "ada@example.com", message: "Hello" });
    formId = await formOfHook(owner, siteId, hook);
    const form = await getForm();
    expect(form.retention).toEqual({ inboxDays: 90, spamDays: 30 });
    expect(form.retentionJob).toBeNull();
    const item = await storedItem(first.submissionId);
    expect(item?.ttl).toBe(ttlAfter(item?.createdAt, 90));

    const built = await api("POST", `/api/v1/sites/${siteId}/forms`, { token: owner.token, body: { name: "Built" } });
    expect(built.body.data.form.retention).toEqual({ inboxDays: 90, spamDays: 30 });
    const own = await api("POST", `/api/v1/sites/${siteId}/forms`, {
      token: owner.token,
      body: { name: "Own", retention: { spamDays: null } },
    });
    expect(own.status).toBe(201);
    expect(own.body.data.form.retention).toEqual({ inboxDays: 90, spamDays: null });
  });

  test.each([
    ["zero days", { inboxDays: 0 }, "retention.inboxDays"],
    ["more than ten years", { spamDays: 3651 }, "retention.spamDays"],
    ["a fraction", { inboxDays: 1.5 }, "retention.inboxDays"],
    ["a string", { inboxDays: "30" }, "retention.inboxDays"],
    ["an unknown key", { days: 30 }, "retention"],
  ])("a retention of %s is refused with VALIDATION_ERROR, nothing written", async (_name, retention, path) => {
    const before = await getForm();
    const res = await setRetention(retention);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(res.body.error.details)).toContain(path.split(".").pop());
    expect((await getForm()).updatedAt).toBe(before.updatedAt);
    const site = await api("PUT", `/api/v1/sites/${siteId}`, { token: owner.token, body: { defaultRetention: retention } });
    expect(site.status).toBe(400);
    expect(site.body.error.code).toBe("VALIDATION_ERROR");
  });

  test("another organization's form and site are 404, and nothing of them changes", async () => {
    const stranger = await signupOwner("retention-stranger");
    const res = await setRetention({ inboxDays: 1 }, formId, stranger.token);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
    const site = await api("PUT", `/api/v1/sites/${siteId}`, {
      token: stranger.token,
      body: { defaultRetention: { inboxDays: 1 } },
    });
    expect(site.status).toBe(404);
    expect((await getForm()).retention).toEqual({ inboxDays: 90, spamDays: 30 });
    expect(await auditItems(owner.orgId, "form.retention_changed")).toEqual([]);
  });
});

describe("a submission's expiry", () => {
  let inboxId: string;
  let spamId: string;

  test("intake stores the ttl of its state: inbox and spam by the form's days, none for kept", async () => {
    inboxId = (await submitTo(hook, { email: "bob@example.com", message: "Inbox" })).submissionId;
    spamId = (await submitTo(hook, { email: "bot@example.com", message: "Cheap", _hp: "a bot" })).submissionId;
    const inbox = await storedItem(inboxId);
    const spam = await storedItem(spamId);
    expect(spam?.isSpam).toBe(true);
    expect(inbox?.ttl).toBe(ttlAfter(inbox?.createdAt, 90));
    expect(spam?.ttl).toBe(ttlAfter(spam?.createdAt, 30));
    const answered = (await getSubmission(spamId)).body.data.submission;
    expect(answered.expiresAt).toBe(new Date(ttlAfter(spam?.createdAt, 30) * 1000).toISOString());
  });

  test("moderation sets the new state's ttl in the same write: flagged takes spam's, unflagged the inbox's", async () => {
    const flagged = await api("PUT", `/api/v1/submissions/${inboxId}`, { token: owner.token, body: { isSpam: true } });
    expect(flagged.status).toBe(200);
    const item = await storedItem(inboxId);
    expect(item?.ttl).toBe(ttlAfter(item?.createdAt, 30));
    expect(flagged.body.data.submission.expiresAt).toBe(new Date(ttlAfter(item?.createdAt, 30) * 1000).toISOString());
    const unflagged = await api("PUT", `/api/v1/submissions/${inboxId}`, { token: owner.token, body: { isSpam: false } });
    expect(unflagged.status).toBe(200);
    expect((await storedItem(inboxId))?.ttl).toBe(ttlAfter(item?.createdAt, 90));
  });

  test("a change re-dates the existing submissions through the job, records an audit entry, and a kept state has no ttl", async () => {
    await pipelineBarrier();
    const res = await setRetention({ inboxDays: null, spamDays: 7 });
    expect(res.status).toBe(200);
    expect(res.body.data.form.retention).toEqual({ inboxDays: null, spamDays: 7 });
    // Never in the request: the answer shows the job it started.
    expect(res.body.data.form.retentionJob).toMatchObject({ status: "running", examined: 0, updated: 0, finishedAt: null });
    const form = await jobFinishes();
    // ada, bob (inbox: ttl removed) and the spam one (re-dated to 7 days).
    expect(form.retentionJob).toMatchObject({ status: "finished", examined: 3, updated: 3 });
    expect((await storedItem(inboxId))?.ttl).toBeUndefined();
    expect((await getSubmission(inboxId)).body.data.submission.expiresAt).toBeNull();
    const spam = await storedItem(spamId);
    expect(spam?.ttl).toBe(ttlAfter(spam?.createdAt, 7));

    const [entry, ...more] = await auditItems(owner.orgId, "form.retention_changed");
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      actor: { type: "member", userId: owner.userId },
      target: { type: "form", id: formId },
      details: { inboxDaysBefore: 90, spamDaysBefore: 30, inboxDays: null, spamDays: 7 },
    });

    // The same values again change nothing: no job, no entry.
    const same = await setRetention({ inboxDays: null, spamDays: 7 });
    expect(same.status).toBe(200);
    expect(await auditItems(owner.orgId, "form.retention_changed")).toHaveLength(1);
  });
});

describe("expiry", () => {
  let goneId: string;
  let keptId: string;
  const email = "expiring@example.com";

  test("an expired submission is gone for every read before anything deletes it", async () => {
    await api("PUT", `/api/v1/forms/${formId}`, {
      token: owner.token,
      body: { settings: { notifyEmails: ["ops@example.com"] } },
    });
    const endpoint = await api("POST", `/api/v1/forms/${formId}/outbound-webhooks`, {
      token: owner.token,
      body: { url: receiver.url("/retention"), description: "CRM" },
    });
    expect(endpoint.status).toBe(201);
    const endpointId = endpoint.body.data.id ?? endpoint.body.data.endpoint?.id;
    goneId = (await submitTo(hook, { email, message: "Please forget me" })).submissionId;
    keptId = (await submitTo(hook, { email, message: "Keep me" })).submissionId;
    // Its notification and its delivery are recorded before it expires.
    await eventually("the email and the delivery are recorded", async () => {
      const emails = await sentEmailKeysOf(goneId);
      const delivery = await itemAt(keys.outboundDelivery(deliveryIdFor(goneId, endpointId)));
      return emails.length > 0 && delivery?.status === "delivered" ? true : undefined;
    });
    await bookkeepingBarrier();
    const token = searchToken(queryKey(email) as string);
    expect((await searchEntriesOf(formId, token)).sort()).toEqual([goneId, keptId].sort());

    await expireSubmission(goneId);
    expect((await getSubmission(goneId)).status).toBe(404);
    const list = await api("GET", `/api/v1/forms/${formId}/submissions?spam=all`, { token: owner.token });
    const listed = list.body.data.submissions.map((s: { id: string }) => s.id);
    expect(listed).toContain(keptId);
    expect(listed).not.toContain(goneId);
    const found = await api("GET", `/api/v1/forms/${formId}/submissions?q=${encodeURIComponent(email)}`, { token: owner.token });
    expect(found.body.data.submissions.map((s: { id: string }) => s.id)).toEqual([keptId]);
    const exported = await api("GET", `/api/v1/forms/${formId}/submissions/export?format=json&spam=all`, { token: owner.token });
    const exportedIds = exported.body.submissions.map((s: { id: string }) => s.id);
    expect(exportedIds).toContain(keptId);
    expect(exportedIds).not.toContain(goneId);
    const moderated = await api("PUT", `/api/v1/submissions/${goneId}`, { token: owner.token, body: { isSpam: true } });
    expect(moderated.status).toBe(404);
    // Bulk delete does not count it as the caller's.
    const bulk = await api("POST", "/api/v1/submissions/bulk-delete", { token: owner.token, body: { ids: [goneId] } });
    expect(bulk.body.data).toEqual({ deleted: 0, notFound: [goneId] });
    expect((await api("DELETE", `/api/v1/submissions/${goneId}`, { token: owner.token })).status).toBe(404);
    expect(await storedItem(goneId)).toBeDefined();
  });

  test("the sweeper deletes it: the form's counts drop, its search entries, emails and delivery follow it out, the webhook's count drops; the site's day stays", async () => {
    const endpoints = await api("GET", `/api/v1/forms/${formId}/outbound-webhooks`, { token: owner.token });
    const endpointId = endpoints.body.data.outboundWebhooks?.[0]?.id ?? endpoints.body.data[0]?.id;
    const deliveryKey = keys.outboundDelivery(deliveryIdFor(goneId, endpointId));
    const before = await getForm();
    const { submissionCount, lastReceivedAt } = (await webhookCountsItem(siteId, hook.id)) ?? {};
    const webhookBefore = { submissionCount: Number(submissionCount), lastReceivedAt };
    const createdAt = (await storedItem(goneId))?.createdAt as string;
    const dayBefore = await siteDayItem(siteId, createdAt.slice(0, 10));

    // Submissions only: other tests keep expired sessions and links on purpose (lib/store/expiry.ts).
    await sweepExpired({ partitionPrefix: keys.submission("").pk });
    expect(await storedItem(goneId)).toBeUndefined();
    expect(await storedItem(keptId)).toBeDefined();
    await countsSettle(formId, { inbox: before.submissionCount - 1, spam: before.spamCount });
    await bookkeepingBarrier();
    // A webhook's count is the submissions it holds (docs/api.md, "Webhooks"): it follows it out, its lastReceivedAt stays.
    expect(await webhookCountsItem(siteId, hook.id)).toMatchObject({
      submissionCount: webhookBefore.submissionCount - 1,
      lastReceivedAt: webhookBefore.lastReceivedAt,
    });
    expect(await searchEntriesOf(formId, searchToken(queryKey(email) as string))).toEqual([keptId]);
    expect(await sentEmailKeysOf(goneId)).toEqual([]);
    expect(await itemAt(deliveryKey)).toBeUndefined();
    // The kept one's records stay.
    expect((await sentEmailKeysOf(keptId)).length).toBeGreaterThan(0);
    expect(await itemAt(keys.outboundDelivery(deliveryIdFor(keptId, endpointId)))).toBeDefined();
    // The site's daily counts are history: they still count what arrived.
    expect(await siteDayItem(siteId, createdAt.slice(0, 10))).toEqual(dayBefore);
  });
});

describe("the re-dating job", () => {
  test("runs pass by pass with its progress, and a second change during it wins", async () => {
    const built = await api("POST", `/api/v1/sites/${siteId}/forms`, { token: owner.token, body: { name: "Many" } });
    const form = built.body.data.form;
    // Spam, stored without a ttl (as before retention existed): several passes' worth (RETENTION_PASS_SIZE is 50 here).
    const count = 130;
    const subs = Array.from({ length: count }, (_, i) =>
      makeSubmission(
        { id: form.id, orgId: owner.orgId, siteId },
        {
          data: { note: `spam ${i}` },
          spam: { score: 1, isSpam: true, signals: [] },
          createdAt: new Date(Date.now() - (count - i) * 1000).toISOString(),
        },
      ),
    );
    await putSubmissions(subs);
    const first = await setRetention({ spamDays: 5 }, form.id);
    expect(first.body.data.form.retentionJob.status).toBe("running");
    const second = await setRetention({ spamDays: 12 }, form.id);
    expect(second.status).toBe(200);
    const finished = await jobFinishes(form.id, 60_000);
    expect(finished.retention).toEqual({ inboxDays: 90, spamDays: 12 });
    expect(finished.retentionJob).toMatchObject({ status: "finished", examined: count });
    expect(Date.parse(finished.retentionJob.startedAt)).toBe(Date.parse(second.body.data.form.updatedAt));
    // Pass by pass: 130 submissions at 50 a pass, then the pass that finds the end.
    expect((await itemAt(keys.retentionJob(form.id)))?.passes).toBe(4);
    // Every submission has the second change's expiry, none the first's.
    const items = await Promise.all(subs.map((s) => storedItem(s.id)));
    const wrong = items.filter((item) => item?.ttl !== ttlAfter(item?.createdAt, 12));
    expect(wrong).toEqual([]);
    expect(await auditItems(owner.orgId, "form.retention_changed")).toHaveLength(3);
  }, 120_000);
});
