import { randomUUID } from "node:crypto";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import { sweepExpired } from "../../../infra/local/ttl-sweeper";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { FORWARD_ONLY_MAX_HOURS, forwardBound, VALUES_GONE } from "../../../lib/outbound/forward-only";
import { deliveryIdFor } from "../../../lib/outbound/payload";
import { getForwardMarker } from "../../../lib/store/forward-markers";
import { keys } from "../../../lib/store/keys";
import { getDelivery } from "../../../lib/store/outbound-deliveries";
import { getSubmission } from "../../../lib/store/submissions";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { eventually } from "../../support/eventually";
import { accepted, newWebhook, postIntake, type TestWebhook } from "../../support/intake";
import { type Receiver, receiverPath, startReceiver } from "../../support/outbound-receiver";
import { expireItem } from "../../support/retention";
import { makeSubmission, putSubmissions, storedItem } from "../../support/submissions";
import { bookkeepingBarrier, pipelineBarrier } from "./support/barrier";

/**
 * Forward-only forms end to end on the local stack (docs/privacy.md, "Forward-only forms"):
 * intake → stream → consumer (marker, emails, deliveries) → attempts against a receiver on
 * loopback → the strip once everything is final, and the bookkeeper's part (the marker's
 * removal strips what still holds values; a strip deletes the search entries). The test stack
 * retries on a "1,1,1,1" schedule (test/support/global-setup.ts): 5 attempts about a second apart.
 */

jest.setTimeout(120_000);

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

interface Target {
  owner: Account;
  formId: string;
  webhook: TestWebhook;
}

/** An owner, a site, a published form that notifies `notify@...` (forward-only when asked) and a webhook feeding it. */
async function formTarget(label: string, forwardOnly: boolean): Promise<Target> {
  const owner = await signupOwner(label);
  const siteId = await createSite(owner, `${label} site`);
  const form = await api("POST", `/api/v1/sites/${siteId}/forms`, {
    token: owner.token,
    body: { name: "Leads", status: "published", settings: { notifyEmails: [`notify.${randomUUID()}@example.com`] } },
  });
  if (form.status !== 201) throw new Error(`form creation failed: ${form.status} ${form.text}`);
  const formId = form.body.data.form.id as string;
  if (forwardOnly) {
    const set = await api("PUT", `/api/v1/forms/${formId}`, { token: owner.token, body: { settings: { forwardOnly: true } } });
    if (set.status !== 200) throw new Error(`forward-only failed: ${set.status} ${set.text}`);
  }
  // A server-to-server source: browser-only spam signals would flag many submissions from 127.0.0.1.
  // Under web3forms compatibility its `email` is the reply-to and `subject`, `from_name` are kept
  // in the metadata: what a strip must remove.
  return {
    owner,
    formId,
    webhook: await newWebhook(owner, siteId, {
      name: "Leads",
      formId,
      source: "partner_automation",
      compatibility: { service: "web3forms" },
    }),
  };
}

async function addEndpoint(t: Target, path: string): Promise<string> {
  const res = await api("POST", `/api/v1/forms/${t.formId}/outbound-webhooks`, {
    token: t.owner.token,
    body: { url: receiver.url(path) },
  });
  if (res.status !== 201) throw new Error(`endpoint creation failed: ${res.status} ${res.text}`);
  return res.body.data.id as string;
}

async function submit(t: Target) {
  const unique = randomUUID();
  const email = `grace.${unique}@compilers.example.com`;
  const sent = accepted(
    await postIntake(t.webhook, {
      json: { name: "Grace Hopper", email, message: `Order ${unique}`, subject: "An order", from_name: "Grace" },
      headers: { "user-agent": "forward-only-test/1.0", referer: "https://www.example.com/contact" },
    }),
  );
  return { ...sent, email };
}

const viewOf = async (t: Target, submissionId: string) => {
  const res = await api("GET", `/api/v1/submissions/${submissionId}`, { token: t.owner.token });
  expect(res.status).toBe(200);
  return res.body.data.submission;
};

/** The form's submissions a search for `q` finds (its search entries, kept by the bookkeeper). */
const searched = async (t: Target, q: string) => {
  const res = await api("GET", `/api/v1/forms/${t.formId}/submissions?q=${encodeURIComponent(q)}`, { token: t.owner.token });
  expect(res.status).toBe(200);
  return (res.body.data.submissions as { id: string }[]).map((s) => s.id);
};

const emailsOf = async (t: Target, submissionId: string) => {
  const res = await api("GET", `/api/v1/submissions/${submissionId}/emails`, { token: t.owner.token });
  expect(res.status).toBe(200);
  return res.body.data.emails as { kind: string }[];
};

const stripped = (submissionId: string) => async () => (await getSubmission(submissionId))?.valuesDeletedAt !== undefined;

/** What a stripped submission keeps, and what it no longer holds. */
async function expectStripped(t: Target, submissionId: string) {
  const stored = await getSubmission(submissionId);
  expect(stored?.data).toEqual({});
  expect(stored?.metadata).toMatchObject({ ip: null, userAgent: null, referer: null, source: "partner_automation" });
  for (const personal of ["replyTo", "subject", "fromName"]) expect(stored?.metadata).not.toHaveProperty(personal);
  expect(stored?.lead?.grade).toBeDefined();
  const view = await viewOf(t, submissionId);
  expect(view).toMatchObject({ id: submissionId, data: {}, metadata: { ip: null } });
  expect(Date.parse(view.valuesDeletedAt)).not.toBeNaN();
  expect(await getForwardMarker(submissionId)).toBeUndefined();
}

/**
 * A forward-only target whose endpoint fails every attempt slowly (the chain of five lasts well
 * over ten seconds), a submission, and its delivery once the first attempt is recorded.
 */
async function stillRetrying(label: string) {
  const t = await formTarget(label, true);
  const path = receiverPath(label);
  receiver.script(path, Array(10).fill({ status: 500, delayMs: 1500 }));
  const endpointId = await addEndpoint(t, path);
  const sent = await submit(t);
  const delivery = deliveryIdFor(sent.submissionId, endpointId);
  await eventually("the first attempt recorded", async () => (await getDelivery(delivery))?.status === "retrying");
  return { t, path, sent, delivery };
}

/** The delivery ended as failed because the values are gone, before its attempts ran out. */
async function endedWithoutValues(delivery: string) {
  await eventually("the delivery ended", async () => (await getDelivery(delivery))?.status === "failed", {
    timeoutMs: 30_000,
  });
  const ended = await getDelivery(delivery);
  expect(ended?.lastError).toBe(VALUES_GONE);
  expect(ended?.attemptCount).toBeLessThan(5);
  await pipelineBarrier();
}

describe("forward-only forms", () => {
  test("a delivery that fails, then succeeds: the values stay while it retries and go once it is delivered", async () => {
    const t = await formTarget("fwd-retry", true);
    const path = receiverPath("fwd-retry");
    // Slow 500s: the retries span a few seconds, long enough to look at the submission between them.
    receiver.script(path, [
      { status: 500, delayMs: 600 },
      { status: 500, delayMs: 600 },
    ]);
    const endpointId = await addEndpoint(t, path);
    const sent = await submit(t);

    await receiver.waitFor(path, 1);
    const first = JSON.parse(receiver.requests(path)[0]?.body ?? "{}");
    expect(first.data.fields.email).toBe(sent.email);
    // Retrying: the values are kept, the marker holds the bound, search finds it.
    const delivery = deliveryIdFor(sent.submissionId, endpointId);
    await eventually("the first attempt recorded", async () => (await getDelivery(delivery))?.status === "retrying");
    expect((await getSubmission(sent.submissionId))?.data.email).toBe(sent.email);
    const marker = await getForwardMarker(sent.submissionId);
    const createdAt = (await getSubmission(sent.submissionId))?.createdAt ?? "";
    expect(marker?.ttl).toBe(Math.floor(Date.parse(createdAt) / 1000) + 72 * 3600);
    await bookkeepingBarrier();
    expect(await searched(t, sent.email)).toEqual([sent.submissionId]);

    await eventually("the submission stripped", stripped(sent.submissionId), { timeoutMs: 30_000 });
    const done = await getDelivery(delivery);
    expect(done?.status).toBe("delivered");
    expect(done?.attemptCount).toBe(3);
    // Every attempt carried the values; the third one (the 200) too.
    const bodies = receiver.requests(path).map((r) => JSON.parse(r.body));
    expect(bodies).toHaveLength(3);
    expect(bodies.every((b) => b.data.fields.email === sent.email)).toBe(true);
    await expectStripped(t, sent.submissionId);

    // Where it went is still there: the delivery and the notification email.
    const deliveries = await api("GET", `/api/v1/submissions/${sent.submissionId}/deliveries`, { token: t.owner.token });
    expect(deliveries.body.data.deliveries).toEqual([expect.objectContaining({ id: delivery, status: "delivered" })]);
    expect((await emailsOf(t, sent.submissionId)).map((e) => e.kind)).toEqual(["notification"]);
    // Its search entries went with its values; the form's counts did not move.
    await bookkeepingBarrier();
    expect(await searched(t, sent.email)).toEqual([]);
    const form = await api("GET", `/api/v1/forms/${t.formId}`, { token: t.owner.token });
    expect(form.body.data.form.submissionCount).toBe(1);
  });

  test("a form with no endpoint: stripped once its notification is sent", async () => {
    const t = await formTarget("fwd-none", true);
    const sent = await submit(t);
    await eventually("the submission stripped", stripped(sent.submissionId), { timeoutMs: 30_000 });
    await expectStripped(t, sent.submissionId);
    expect((await emailsOf(t, sent.submissionId)).map((e) => e.kind)).toEqual(["notification"]);
    const list = await api("GET", `/api/v1/forms/${t.formId}/submissions`, { token: t.owner.token });
    expect(list.body.data.submissions).toEqual([expect.objectContaining({ id: sent.submissionId, data: {} })]);
  });

  test("the marker's removal (its bound) strips a submission whose delivery still retries; the retry then ends as failed", async () => {
    const { t, path, sent, delivery } = await stillRetrying("fwd-bound");
    expect(await getForwardMarker(sent.submissionId)).toMatchObject({ emailsDone: true });
    expect((await getSubmission(sent.submissionId))?.data.email).toBe(sent.email);

    // The bound passes: the marker's ttl is behind us, and the local stack's TTL sweeper deletes
    // it as DynamoDB's TTL would (a REMOVE on the stream, which the bookkeeper follows).
    await expireItem(keys.forwardMarker(sent.submissionId));
    expect(await sweepExpired({ partitionPrefix: keys.forwardMarker("").pk })).toBeGreaterThanOrEqual(1);
    await eventually("the submission stripped", stripped(sent.submissionId), { timeoutMs: 30_000 });
    await endedWithoutValues(delivery);
    // No attempt sent an empty event: every request that went out carried the values.
    for (const request of receiver.requests(path)) expect(JSON.parse(request.body).data.fields.email).toBe(sent.email);
    await expectStripped(t, sent.submissionId);
  });

  test("past its bound (arrived over 72 hours ago), a retrying delivery strips the values and ends instead of sending them, before the marker's TTL", async () => {
    const { t, path, sent, delivery } = await stillRetrying("fwd-late");
    const stored = await getSubmission(sent.submissionId);
    // The bound is on the submission, the same as its marker's TTL.
    expect(stored?.valuesKeptUntil).toBe(forwardBound(stored?.createdAt ?? ""));
    expect(Date.parse(stored?.valuesKeptUntil ?? "") / 1000).toBe((await getForwardMarker(sent.submissionId))?.ttl);

    // As if it arrived 73 hours ago: its bound passed an hour ago; its marker's TTL (which AWS may
    // apply days late) has not, and no sweep runs.
    const arrivedAt = new Date(Date.now() - (FORWARD_ONLY_MAX_HOURS + 1) * 3_600_000).toISOString();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.submission(sent.submissionId),
        UpdateExpression: "SET valuesKeptUntil = :until",
        ExpressionAttributeValues: { ":until": forwardBound(arrivedAt) },
      }),
    );
    const sentBefore = receiver.requests(path).length;
    await endedWithoutValues(delivery);
    // At most the attempt already under way when the bound moved went out; none after it.
    expect(receiver.requests(path).length).toBeLessThanOrEqual(sentBefore + 1);
    expect((await getSubmission(sent.submissionId))?.data).toEqual({});
    expect((await getForwardMarker(sent.submissionId))?.ttl).toBeGreaterThan(Date.now() / 1000);
    const view = await viewOf(t, sent.submissionId);
    expect(view).toMatchObject({ data: {}, metadata: { ip: null, userAgent: null } });
  });

  test("past its bound and not yet stripped, no reader shows the values: the API, the list and the exports", async () => {
    const t = await formTarget("fwd-view", true);
    const form = await api("GET", `/api/v1/forms/${t.formId}`, { token: t.owner.token });
    const { siteId } = form.body.data.form;
    const orgId = t.owner.orgId;
    // Written through the store as a forward-only submission the pipeline took up 73 hours ago and
    // a moderator then flagged as spam: nothing processes it, so its values are still stored.
    const arrivedAt = new Date(Date.now() - (FORWARD_ONLY_MAX_HOURS + 1) * 3_600_000).toISOString();
    const email = `late.${randomUUID()}@example.com`;
    const late = {
      ...makeSubmission(
        { id: t.formId, orgId, siteId },
        {
          webhookId: t.webhook.id,
          createdAt: arrivedAt,
          data: { email, message: "Call me" },
          metadata: {
            source: "generic",
            userAgent: "late/1.0",
            referer: "https://www.example.com/",
            ip: "203.0.113.7",
            droppedFiles: [],
            ignoredFields: [],
            replyTo: email,
            fromName: "Late",
          },
          spam: { score: 90, isSpam: true, signals: [] },
        },
      ),
      valuesKeptUntil: forwardBound(arrivedAt),
    };
    await putSubmissions([late]);
    expect((await storedItem(late.id))?.data).toEqual({ email, message: "Call me" });

    const view = await viewOf(t, late.id);
    expect(view).toMatchObject({ data: {}, metadata: { ip: null, userAgent: null, referer: null, source: "generic" } });
    expect(view.metadata).not.toHaveProperty("replyTo");
    expect(view.metadata).not.toHaveProperty("fromName");
    expect(view.valuesDeletedAt).toBe(late.valuesKeptUntil);
    const list = await api("GET", `/api/v1/forms/${t.formId}/submissions?spam=true`, { token: t.owner.token });
    expect(list.body.data.submissions).toEqual([expect.objectContaining({ id: late.id, data: {} })]);
    for (const format of ["csv", "json"]) {
      const exported = await api("GET", `/api/v1/forms/${t.formId}/submissions/export?format=${format}&spam=all`, {
        token: t.owner.token,
      });
      expect(exported.status).toBe(200);
      expect(exported.headers.get("x-inlet-export-rows")).toBe("1");
      expect(exported.text).toContain(late.referenceId);
      expect(exported.text).not.toContain(email);
      expect(exported.text).not.toContain("203.0.113.7");
    }
  });

  test("a normal form is never stripped", async () => {
    const t = await formTarget("fwd-normal", false);
    const path = receiverPath("fwd-normal");
    const endpointId = await addEndpoint(t, path);
    const sent = await submit(t);
    await eventually(
      "delivered",
      async () => (await getDelivery(deliveryIdFor(sent.submissionId, endpointId)))?.status === "delivered",
    );
    await pipelineBarrier();
    await bookkeepingBarrier();
    const stored = await getSubmission(sent.submissionId);
    expect(stored?.data.email).toBe(sent.email);
    // What a forward-only form's strip removes is there on a normal form.
    expect(stored?.metadata).toMatchObject({ replyTo: sent.email, subject: "An order", fromName: "Grace" });
    expect(stored?.valuesDeletedAt).toBeUndefined();
    expect(await getForwardMarker(sent.submissionId)).toBeUndefined();
    expect((await viewOf(t, sent.submissionId)).valuesDeletedAt).toBeNull();
    expect(await searched(t, sent.email)).toEqual([sent.submissionId]);
  });
});
