import { randomUUID } from "node:crypto";
import { jest } from "@jest/globals";
import { getSubmission } from "../../../lib/store/submissions";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { apiKeyWith, insertForm } from "../../support/fixtures";
import { accepted, newWebhook, postIntake } from "../../support/intake";
import { type Receiver, receiverPath, startReceiver, verifyDelivery } from "../../support/outbound-receiver";
import { pipelineBarrier } from "../pipeline/support/barrier";

/**
 * The outbound routes the dashboard needs over HTTP (docs/api.md, "Outbound webhooks"): the test
 * event (`POST .../test`), the deliveries list's status filter, and a submission's deliveries.
 * Events reach a loopback receiver through the real queue and consumer, verified with the
 * `standardwebhooks` package as a receiver would.
 */

jest.setTimeout(60_000);

const base = (formId: string) => `/api/v1/forms/${formId}/outbound-webhooks`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let receiver: Receiver;
let owner: Account;
let siteId: string;
let formId: string;

beforeAll(async () => {
  receiver = await startReceiver();
  owner = await signupOwner("outbound-tests");
  siteId = await createSite(owner);
  formId = (await insertForm(owner, siteId)).id;
});
afterAll(async () => {
  await receiver.close();
});

async function addEndpoint(path: string, form = formId, token = owner.token) {
  const res = await api("POST", base(form), { token, body: { url: receiver.url(path) } });
  if (res.status !== 201) throw new Error(`endpoint creation failed: ${res.status} ${res.text}`);
  return res.body.data as { id: string; signingSecret: string };
}

async function deliveries(endpointId: string, query = "", form = formId) {
  const res = await api("GET", `${base(form)}/${endpointId}/deliveries${query}`, { token: owner.token });
  if (res.status !== 200) throw new Error(`deliveries failed: ${res.status} ${res.text}`);
  return res.body.data as { deliveries: any[]; nextCursor: string | null };
}

/** Polls the endpoint's log until delivery `id` is settled (delivered or failed, nothing in flight). */
async function settledDelivery(endpointId: string, id: string, form = formId) {
  for (let i = 0; i < 150; i++) {
    const found = (await deliveries(endpointId, "", form)).deliveries.find((d) => d.id === id);
    if (found && (found.status === "delivered" || found.status === "failed") && !found.inFlight) return found;
    await sleep(200);
  }
  throw new Error(`delivery ${id} did not settle`);
}

describe("POST .../outbound-webhooks/{endpointId}/test", () => {
  test("sends one signed webhook.test event through the delivery log", async () => {
    const path = receiverPath("test-event");
    const endpoint = await addEndpoint(path);
    const res = await api("POST", `${base(formId)}/${endpoint.id}/test`, { token: owner.token });
    expect(res.status).toBe(202);
    const queued = res.body.data.delivery;
    expect(queued).toMatchObject({
      id: expect.stringMatching(/^dlv_[0-9A-Za-z]{22}$/),
      endpointId: endpoint.id,
      submissionId: null,
      eventType: "webhook.test",
      status: "pending",
      attemptCount: 0,
      attempts: [],
    });

    const [request] = await receiver.waitFor(path, 1);
    expect(request?.headers["webhook-id"]).toBe(queued.id);
    const event = verifyDelivery(endpoint.signingSecret, request as never);
    expect(event).toEqual({
      type: "webhook.test",
      timestamp: queued.createdAt,
      data: {
        test: true,
        endpointId: endpoint.id,
        formId,
        siteId,
        message: expect.stringContaining("test event"),
      },
    });

    const delivered = await settledDelivery(endpoint.id, queued.id);
    expect(delivered).toMatchObject({ status: "delivered", attemptCount: 1, submissionId: null, eventType: "webhook.test" });
    expect(delivered.attempts).toEqual([
      expect.objectContaining({ number: 1, statusCode: 200, error: null, trigger: "automatic", nextAttemptAt: null }),
    ]);
    expect(delivered.attempts[0].durationMs).toEqual(expect.any(Number));
    const list = await api("GET", base(formId), { token: owner.token });
    const listed = list.body.data.outboundWebhooks.find((e: { id: string }) => e.id === endpoint.id);
    expect(listed.lastDelivery).toMatchObject({ id: queued.id, submissionId: null, status: "delivered", lastStatusCode: 200 });
  });

  test("a failing receiver gets one attempt, no retry schedule; the status filter finds it; a retry delivers it", async () => {
    const path = receiverPath("test-fails");
    receiver.script(path, [{ status: 500 }]);
    const endpoint = await addEndpoint(path);
    const sent = await api("POST", `${base(formId)}/${endpoint.id}/test`, { token: owner.token });
    expect([sent.status, sent.text]).toEqual([202, expect.any(String)]);
    const failed = await settledDelivery(endpoint.id, sent.body.data.delivery.id);
    expect(failed).toMatchObject({ status: "failed", attemptCount: 1, nextAttemptAt: null });
    expect(failed.attempts).toEqual([expect.objectContaining({ number: 1, statusCode: 500, nextAttemptAt: null })]);
    // The test stack retries a submission's delivery after 1 s: a test event is never retried
    // (the settled record says no next attempt is due, and nothing else is on its way).
    await pipelineBarrier();
    expect(receiver.requests(path)).toHaveLength(1);

    expect((await deliveries(endpoint.id, "?status=failed")).deliveries.map((d) => d.id)).toEqual([failed.id]);
    expect((await deliveries(endpoint.id, "?status=delivered")).deliveries).toEqual([]);

    const retried = await api("POST", `${base(formId)}/${endpoint.id}/deliveries/${failed.id}/retry`, { token: owner.token });
    expect(retried.status).toBe(202);
    const delivered = await settledDelivery(endpoint.id, failed.id);
    expect(delivered).toMatchObject({ status: "delivered", attemptCount: 2 });
    expect(delivered.attempts.map((a: { statusCode: number; trigger: string }) => [a.statusCode, a.trigger])).toEqual([
      [500, "automatic"],
      [200, "manual"],
    ]);
    expect((await deliveries(endpoint.id, "?status=failed")).deliveries).toEqual([]);
    expect((await deliveries(endpoint.id, "?status=delivered")).deliveries.map((d) => d.id)).toEqual([failed.id]);
  });

  test("test sends are paced per endpoint: a second one within 5 s is 429 RATE_LIMITED with Retry-After", async () => {
    const endpoint = await addEndpoint(receiverPath("paced"));
    const other = await addEndpoint(receiverPath("paced-other"));
    expect((await api("POST", `${base(formId)}/${endpoint.id}/test`, { token: owner.token })).status).toBe(202);
    const again = await api("POST", `${base(formId)}/${endpoint.id}/test`, { token: owner.token });
    expect([again.status, again.body.error.code]).toEqual([429, "RATE_LIMITED"]);
    const wait = Number(again.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(5);
    // Another endpoint of the same form is paced on its own.
    expect((await api("POST", `${base(formId)}/${other.id}/test`, { token: owner.token })).status).toBe(202);
    // Only the accepted send is in the log.
    for (let i = 0; i < 50 && (await deliveries(endpoint.id)).deliveries.length === 0; i++) await sleep(100);
    expect((await deliveries(endpoint.id)).deliveries).toHaveLength(1);
  });

  test("a disabled endpoint is 409 OUTBOUND_WEBHOOK_DISABLED and nothing is sent", async () => {
    const path = receiverPath("disabled");
    const endpoint = await addEndpoint(path);
    await api("PUT", `${base(formId)}/${endpoint.id}`, { token: owner.token, body: { isEnabled: false } });
    const res = await api("POST", `${base(formId)}/${endpoint.id}/test`, { token: owner.token });
    expect([res.status, res.body.error.code]).toEqual([409, "OUTBOUND_WEBHOOK_DISABLED"]);
    expect((await deliveries(endpoint.id)).deliveries).toEqual([]);
    expect(receiver.requests(path)).toEqual([]);
  });

  test("another organization's form or endpoint is 404; forms.view alone is 403", async () => {
    const endpoint = await addEndpoint(receiverPath("foreign"));
    const stranger = await signupOwner("outbound-stranger");
    const foreign = await api("POST", `${base(formId)}/${endpoint.id}/test`, { token: stranger.token });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, "NOT_FOUND"]);
    const unknown = await api("POST", `${base(formId)}/ep_${"x".repeat(22)}/test`, { token: owner.token });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "NOT_FOUND"]);
    const viewerKey = await apiKeyWith(owner, ["forms.view"]);
    const refused = await api("POST", `${base(formId)}/${endpoint.id}/test`, { token: viewerKey });
    expect([refused.status, refused.body.error.code]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
    expect((await deliveries(endpoint.id)).deliveries).toEqual([]);
  });
});

describe("GET .../deliveries?status=", () => {
  test("anything but a delivery status is 400 VALIDATION_ERROR", async () => {
    const endpoint = await addEndpoint(receiverPath("status-filter"));
    for (const status of ["bogus", "FAILED", "", "failed,retrying", "x".repeat(3000)]) {
      const res = await api("GET", `${base(formId)}/${endpoint.id}/deliveries?status=${encodeURIComponent(status)}`, {
        token: owner.token,
      });
      expect([status.slice(0, 20), res.status, res.body.error?.code]).toEqual([status.slice(0, 20), 400, "VALIDATION_ERROR"]);
    }
    for (const status of ["pending", "retrying", "delivered", "failed"]) {
      expect((await deliveries(endpoint.id, `?status=${status}`)).deliveries).toEqual([]);
    }
  });
});

describe("GET /submissions/{submissionId}/deliveries", () => {
  test("lists the submission's delivery to each endpoint of its form, with the endpoint", async () => {
    const form = await api("POST", `/api/v1/sites/${siteId}/forms`, {
      token: owner.token,
      body: { name: "Contact", status: "published" },
    });
    expect(form.status).toBe(201);
    const contactId = form.body.data.form.id as string;
    const okPath = receiverPath("sub-ok");
    const failPath = receiverPath("sub-fail");
    // 410 ends the delivery at once (and disables that endpoint).
    receiver.script(failPath, [{ status: 410 }]);
    const ok = await addEndpoint(okPath, contactId);
    const gone = await addEndpoint(failPath, contactId);
    const webhook = await newWebhook(owner, siteId, { name: "Contact", formId: contactId, source: "partner_automation" });
    const unique = randomUUID();
    const { submissionId } = accepted(
      await postIntake(webhook, {
        json: { name: "Ada Lovelace", email: `ada.${unique}@analytical-engines.com`, message: `Order ${unique}` },
      }),
    );

    let listed: any[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await api("GET", `/api/v1/submissions/${submissionId}/deliveries`, { token: owner.token });
      expect(res.status).toBe(200);
      listed = res.body.data.deliveries;
      const settled = listed.filter((d) => (d.status === "delivered" || d.status === "failed") && !d.inFlight);
      if (settled.length === 2) break;
      await sleep(200);
    }
    const byEndpoint = Object.fromEntries(listed.map((d) => [d.endpoint.id, d]));
    expect(Object.keys(byEndpoint).sort()).toEqual([ok.id, gone.id].sort());
    expect(byEndpoint[ok.id]).toMatchObject({
      submissionId,
      eventType: "submission.created",
      status: "delivered",
      endpoint: { id: ok.id, url: receiver.url(okPath), description: null },
    });
    expect(byEndpoint[gone.id]).toMatchObject({ status: "failed", attempts: [expect.objectContaining({ statusCode: 410 })] });
    // The same deliveries as each endpoint's log holds.
    const log = await deliveries(ok.id, "", contactId);
    expect(log.deliveries.map((d) => d.id)).toContain(byEndpoint[ok.id].id);

    const stranger = await signupOwner("outbound-sub-stranger");
    const foreign = await api("GET", `/api/v1/submissions/${submissionId}/deliveries`, { token: stranger.token });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, "NOT_FOUND"]);
    const unknown = await api("GET", `/api/v1/submissions/sub_${"z".repeat(22)}/deliveries`, { token: owner.token });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "NOT_FOUND"]);
    expect((await getSubmission(submissionId))?.formId).toBe(contactId);
  });

  test("a submission of a form without endpoints has none", async () => {
    const form = await api("POST", `/api/v1/sites/${siteId}/forms`, {
      token: owner.token,
      body: { name: "Quiet", status: "published" },
    });
    const quietId = form.body.data.form.id as string;
    const webhook = await newWebhook(owner, siteId, { name: "Quiet", formId: quietId, source: "partner_automation" });
    const unique = randomUUID();
    const { submissionId } = accepted(
      await postIntake(webhook, { json: { email: `quiet.${unique}@analytical-engines.com`, message: unique } }),
    );
    const res = await api("GET", `/api/v1/submissions/${submissionId}/deliveries`, { token: owner.token });
    expect([res.status, res.body.data]).toEqual([200, { deliveries: [] }]);
  });
});
