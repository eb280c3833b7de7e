import { randomUUID } from "node:crypto";
import { jest } from "@jest/globals";
import { startDeliveries } from "../../../lib/outbound/deliveries";
import { deliveryIdFor } from "../../../lib/outbound/payload";
import { getForm } from "../../../lib/store/forms";
import { getDelivery } from "../../../lib/store/outbound-deliveries";
import { getSubmission } from "../../../lib/store/submissions";
import { api } from "../../support/api";
import { eventually } from "../../support/eventually";
import { accepted, intakeTarget, postIntake, type TestWebhook } from "../../support/intake";
import { type Receiver, receiverPath, startReceiver, verifyDelivery } from "../../support/outbound-receiver";
import { pipelineBarrier } from "./support/barrier";
import { type LeadForm, leadForm } from "./support/lead-forms";

/**
 * Outbound webhooks end to end through the real local stack: intake → table stream → queue →
 * consumer (lead, email, startDeliveries) → delivery attempts from internal queue messages →
 * a receiver on loopback, which verifies every request with the `standardwebhooks` package.
 * The test stack retries on a "1,1,1,1" schedule (test/support/global-setup.ts): 5 attempts,
 * about a second apart, and times an attempt out after 2 s.
 */

jest.setTimeout(90_000);

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

type Target = LeadForm;

/** An owner, a site, a published builder form without fields and a webhook feeding it. */
const formTarget = (label: string): Promise<Target> => leadForm(label, { fields: [] });

const base = (t: { formId: string }) => `/api/v1/forms/${t.formId}/outbound-webhooks`;

async function addEndpoint(t: Target, path: string): Promise<{ id: string; signingSecret: string }> {
  const res = await api("POST", base(t), { token: t.owner.token, body: { url: receiver.url(path) } });
  if (res.status !== 201) throw new Error(`endpoint creation failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** A submission with unique content (identical ones from one IP would score as duplicates). */
async function submit(webhook: TestWebhook, extra: Record<string, string> = {}) {
  const unique = randomUUID();
  return accepted(
    await postIntake(webhook, {
      json: {
        name: "Ada Lovelace",
        email: `ada.${unique}@analytical-engines.com`,
        company: "Analytical Engines",
        message: `Order ${unique}`,
        ...extra,
      },
    }),
  );
}

async function deliveries(t: Target, endpointId: string, query = "") {
  const res = await api("GET", `${base(t)}/${endpointId}/deliveries${query}`, { token: t.owner.token });
  if (res.status !== 200) throw new Error(`deliveries failed: ${res.status} ${res.text}`);
  return res.body.data as { deliveries: any[]; nextCursor: string | null };
}

/** Polls the deliveries list until the submission's delivery satisfies `done`. */
async function deliveryWhen(t: Target, endpointId: string, submissionId: string, done: (d: any) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = (await deliveries(t, endpointId)).deliveries.find((d) => d.submissionId === submissionId);
    if (last && done(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  const submission = await getSubmission(submissionId);
  throw new Error(
    `delivery of ${submissionId} did not settle: ${JSON.stringify(last)} (submission spam: ${JSON.stringify(submission?.spam)}, lead: ${JSON.stringify(submission?.lead)})`,
  );
}

/**
 * Delivered or failed, nothing in flight: the delivery's chain has ended. Each attempt is recorded
 * after its request reached the receiver, and a settled one has no next attempt due.
 */
const settled = (d: any) => (d.status === "delivered" || d.status === "failed") && !d.inFlight;

/** Requests to `path` that carry `submissionId`, each verified as a receiver would. */
function verifiedFor(path: string, secret: string, submissionId: string) {
  return receiver
    .requests(path)
    .map((request) => ({ request, event: verifyDelivery(secret, request) }))
    .filter(({ event }) => event.data.submissionId === submissionId);
}

describe("outbound webhooks, end to end", () => {
  test("npm start's flow: intake creates the auto form, an endpoint is added, the next submission arrives signed", async () => {
    const target = await intakeTarget("outbound-e2e", { name: "Contact form", source: "partner_automation" });
    const first = await submit(target.webhook);
    const stored = await getSubmission(first.submissionId);
    const formId = stored?.formId as string;
    // Let the first submission go through the pipeline (its lead stored) before the endpoint exists.
    await eventually("the first submission's lead", async () => (await getSubmission(first.submissionId))?.lead, {
      timeoutMs: 30_000,
    });
    const t: Target = { ...target, formId };
    const path = receiverPath("e2e");
    const endpoint = await addEndpoint(t, path);

    const second = await submit(target.webhook, { phone: "+44 20 7946 0958" });
    const [request] = await receiver.waitFor(path, 1);
    const event = verifyDelivery(endpoint.signingSecret, request as never);
    const submission = await getSubmission(second.submissionId);
    expect(event).toEqual({
      type: "submission.created",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: {
        submissionId: second.submissionId,
        referenceId: second.referenceId,
        formId,
        siteId: target.siteId,
        fields: submission?.data,
        metadata: JSON.parse(JSON.stringify(submission?.metadata)),
        spam: submission?.spam,
        lead: { score: expect.any(Number), grade: expect.stringMatching(/^(hot|warm|cold)$/), reasons: expect.any(Array) },
        createdAt: submission?.createdAt,
      },
    });
    expect(event.data.lead).toEqual(submission?.lead);
    expect(request?.method).toBe("POST");
    expect(request?.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": expect.stringMatching(/^Inlet-Webhooks\//),
      "webhook-id": expect.stringMatching(/^dlv_[0-9A-Za-z]{22}$/),
      "webhook-timestamp": expect.stringMatching(/^\d+$/),
      "webhook-signature": expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    });
    expect(Math.abs(Number(request?.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(30);
    // The first submission, processed before the endpoint existed, was never sent.
    expect(receiver.requests(path)).toHaveLength(1);

    const delivery = await deliveryWhen(t, endpoint.id, second.submissionId, settled);
    expect(delivery).toMatchObject({
      id: request?.headers["webhook-id"],
      endpointId: endpoint.id,
      eventType: "submission.created",
      status: "delivered",
      attemptCount: 1,
      attempts: [
        { number: 1, statusCode: 200, durationMs: expect.any(Number), error: null, nextAttemptAt: null, trigger: "automatic" },
      ],
      nextAttemptAt: null,
      deliveredAt: expect.any(String),
    });
    const list = await api("GET", base(t), { token: t.owner.token });
    expect(list.body.data.outboundWebhooks[0].lastDelivery).toMatchObject({
      id: delivery.id,
      submissionId: second.submissionId,
      status: "delivered",
      attemptCount: 1,
      lastStatusCode: 200,
    });
  });

  test("a receiver answers 500 twice then 200: exactly one successful delivery, three attempts logged", async () => {
    const t = await formTarget("outbound-500");
    const path = receiverPath("flaky");
    receiver.script(path, [{ status: 500 }, { status: 500 }]);
    const endpoint = await addEndpoint(t, path);
    const sent = await submit(t.webhook);

    const delivery = await deliveryWhen(t, endpoint.id, sent.submissionId, settled);
    expect(delivery.status).toBe("delivered");
    expect(delivery.attemptCount).toBe(3);
    expect(delivery.attempts.map((a: any) => [a.number, a.statusCode, a.error])).toEqual([
      [1, 500, "HTTP 500"],
      [2, 500, "HTTP 500"],
      [3, 200, null],
    ]);
    for (const attempt of delivery.attempts.slice(0, 2)) {
      const wait = Date.parse(attempt.nextAttemptAt) - Date.parse(attempt.attemptedAt);
      // The 1 s step with ±10% jitter (plus the milliseconds between the answer and the record).
      expect(wait).toBeGreaterThanOrEqual(850);
      expect(wait).toBeLessThan(1500);
    }
    expect(delivery.attempts[2].nextAttemptAt).toBeNull();

    // Settled, so every attempt's request is in; a copy of a message the pipeline holds would be too.
    await pipelineBarrier();
    const requests = verifiedFor(path, endpoint.signingSecret, sent.submissionId);
    expect(requests).toHaveLength(3);
    // One message, one webhook-id across its retries; each attempt signed afresh.
    expect(new Set(requests.map(({ request }) => request.headers["webhook-id"]))).toEqual(new Set([delivery.id]));
    expect(requests.map(({ request }) => request.body)).toEqual(Array(3).fill(requests[0]?.request.body));
    expect((await deliveries(t, endpoint.id)).deliveries).toHaveLength(1);
  });

  test("one failing endpoint never affects another; after the last attempt the delivery is failed and visible", async () => {
    const t = await formTarget("outbound-two");
    const failingPath = receiverPath("down");
    const healthyPath = receiverPath("up");
    receiver.script(failingPath, Array(20).fill({ status: 503 }));
    const failing = await addEndpoint(t, failingPath);
    const healthy = await addEndpoint(t, healthyPath);
    const sent = await submit(t.webhook);

    const ok = await deliveryWhen(t, healthy.id, sent.submissionId, settled);
    expect(ok).toMatchObject({ status: "delivered", attemptCount: 1 });
    const failed = await deliveryWhen(t, failing.id, sent.submissionId, settled);
    expect(failed).toMatchObject({ status: "failed", attemptCount: 5, nextAttemptAt: null });
    expect(failed.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503, 503, 503]);
    expect(failed.attempts.at(-1).nextAttemptAt).toBeNull();
    expect(failed.id).not.toBe(ok.id);

    await pipelineBarrier();
    expect(verifiedFor(healthyPath, healthy.signingSecret, sent.submissionId)).toHaveLength(1);
    expect(verifiedFor(failingPath, failing.signingSecret, sent.submissionId)).toHaveLength(5);
    const list = (await api("GET", base(t), { token: t.owner.token })).body.data.outboundWebhooks;
    expect(
      Object.fromEntries(list.map((e: any) => [e.id, [e.isEnabled, e.lastDelivery.status, e.lastDelivery.lastStatusCode]])),
    ).toEqual({
      [failing.id]: [true, "failed", 503],
      [healthy.id]: [true, "delivered", 200],
    });

    // A manual retry of the failed delivery: exactly one more attempt, same webhook-id.
    const retry = await api("POST", `${base(t)}/${failing.id}/deliveries/${failed.id}/retry`, { token: t.owner.token });
    expect(retry.status).toBe(202);
    expect(retry.body.data.delivery).toMatchObject({ id: failed.id, status: "pending" });
    receiver.script(failingPath, []);
    const replayed = await deliveryWhen(t, failing.id, sent.submissionId, (d) => d.attemptCount === 6 && settled(d));
    expect(replayed.status).toBe("delivered");
    expect(replayed.attempts.at(-1)).toMatchObject({ number: 6, statusCode: 200, trigger: "manual" });
    const all = verifiedFor(failingPath, failing.signingSecret, sent.submissionId);
    expect(all).toHaveLength(6);
    expect(all.at(-1)?.request.headers["webhook-id"]).toBe(failed.id);
    // The healthy endpoint got nothing more.
    expect(verifiedFor(healthyPath, healthy.signingSecret, sent.submissionId)).toHaveLength(1);
  });

  test("410 Gone disables the endpoint and ends the delivery; nothing more is sent until it is re-enabled", async () => {
    const t = await formTarget("outbound-410");
    const path = receiverPath("gone");
    receiver.script(path, [{ status: 410 }]);
    const endpoint = await addEndpoint(t, path);
    const first = await submit(t.webhook);
    const ended = await deliveryWhen(t, endpoint.id, first.submissionId, settled);
    expect(ended).toMatchObject({ status: "failed", attemptCount: 1 });
    expect(ended.attempts[0]).toMatchObject({ statusCode: 410, error: expect.stringMatching(/410 Gone/), nextAttemptAt: null });
    const [listed] = (await api("GET", base(t), { token: t.owner.token })).body.data.outboundWebhooks;
    expect(listed).toMatchObject({
      isEnabled: false,
      disabledReason: expect.stringMatching(/410/),
      disabledAt: expect.any(String),
    });

    // Disabled: a retry is refused, and the next submission is not sent.
    const refused = await api("POST", `${base(t)}/${endpoint.id}/deliveries/${ended.id}/retry`, { token: t.owner.token });
    expect([refused.status, refused.body.error.code]).toEqual([409, "OUTBOUND_WEBHOOK_DISABLED"]);
    // A witness endpoint, created now, receives the next submission: once its delivery has
    // settled, the consumer's fan-out of that submission is over (its first attempt runs in a
    // later batch of the local poller), and the disabled endpoint got no delivery to attempt.
    const witness = await addEndpoint(t, receiverPath("gone-witness"));
    const second = await submit(t.webhook);
    await deliveryWhen(t, witness.id, second.submissionId, settled);
    expect(await getDelivery(deliveryIdFor(second.submissionId, endpoint.id))).toBeUndefined();
    expect(receiver.requests(path)).toHaveLength(1);

    const enabled = await api("PUT", `${base(t)}/${endpoint.id}`, { token: t.owner.token, body: { isEnabled: true } });
    expect(enabled.body.data).toMatchObject({ isEnabled: true, disabledReason: null, disabledAt: null });
    const third = await submit(t.webhook);
    expect(await deliveryWhen(t, endpoint.id, third.submissionId, settled)).toMatchObject({ status: "delivered" });
    expect(verifiedFor(path, endpoint.signingSecret, third.submissionId)).toHaveLength(1);
    expect(verifiedFor(path, endpoint.signingSecret, second.submissionId)).toHaveLength(0);
  });

  test("a 3xx is a failure and is not followed", async () => {
    const t = await formTarget("outbound-3xx");
    const path = receiverPath("moved");
    const elsewhere = receiverPath("elsewhere");
    receiver.script(path, [
      { status: 301, headers: { location: receiver.url(elsewhere) } },
      { status: 307, headers: { location: elsewhere } },
    ]);
    const endpoint = await addEndpoint(t, path);
    const sent = await submit(t.webhook);
    const delivery = await deliveryWhen(t, endpoint.id, sent.submissionId, settled);
    expect(delivery.status).toBe("delivered");
    expect(delivery.attempts.map((a: any) => [a.statusCode, a.error])).toEqual([
      [301, `redirect 301 not followed (location: ${receiver.url(elsewhere)})`],
      [307, `redirect 307 not followed (location: ${elsewhere})`],
      [200, null],
    ]);
    expect(receiver.requests(elsewhere)).toHaveLength(0);
  });

  test("Retry-After is honoured when longer than the schedule's step", async () => {
    const t = await formTarget("outbound-retry-after");
    const path = receiverPath("busy");
    receiver.script(path, [{ status: 429, headers: { "retry-after": "3" } }]);
    const endpoint = await addEndpoint(t, path);
    const sent = await submit(t.webhook);
    const delivery = await deliveryWhen(t, endpoint.id, sent.submissionId, settled);
    expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([429, 200]);
    const [first, second] = delivery.attempts;
    expect(Date.parse(first.nextAttemptAt) - Date.parse(first.attemptedAt)).toBeGreaterThanOrEqual(3000);
    expect(Date.parse(second.attemptedAt) - Date.parse(first.attemptedAt)).toBeGreaterThanOrEqual(3000);
    const [a, b] = receiver.requests(path);
    expect((b?.receivedAt ?? 0) - (a?.receivedAt ?? 0)).toBeGreaterThanOrEqual(2900);
  });

  test("an attempt that outlasts OUTBOUND_TIMEOUT_MS is a failure, retried", async () => {
    const t = await formTarget("outbound-timeout");
    const path = receiverPath("slow");
    receiver.script(path, [{ status: 200, delayMs: 4000 }]);
    const endpoint = await addEndpoint(t, path);
    const sent = await submit(t.webhook);
    const delivery = await deliveryWhen(t, endpoint.id, sent.submissionId, settled);
    expect(delivery.attempts.map((a: any) => [a.statusCode, a.error])).toEqual([
      [null, "timed out after 2000 ms"],
      [200, null],
    ]);
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(1900);
    expect(delivery.attempts[0].durationMs).toBeLessThan(3500);
  });

  test("a manual retry of a delivered delivery replays it once with the same webhook-id; the list pages", async () => {
    const t = await formTarget("outbound-replay");
    const path = receiverPath("replay");
    const endpoint = await addEndpoint(t, path);
    const sent = [await submit(t.webhook), await submit(t.webhook), await submit(t.webhook)];
    for (const s of sent) await deliveryWhen(t, endpoint.id, s.submissionId, settled);
    const target = sent[1]?.submissionId as string;
    const delivery = (await deliveries(t, endpoint.id)).deliveries.find((d) => d.submissionId === target);

    const retry = await api("POST", `${base(t)}/${endpoint.id}/deliveries/${delivery.id}/retry`, { token: t.owner.token });
    expect(retry.status).toBe(202);
    const replayed = await deliveryWhen(t, endpoint.id, target, (d) => d.attemptCount === 2 && settled(d));
    expect(replayed).toMatchObject({ status: "delivered", attemptCount: 2 });
    expect(replayed.attempts.map((a: any) => [a.number, a.statusCode, a.trigger])).toEqual([
      [1, 200, "automatic"],
      [2, 200, "manual"],
    ]);
    const requests = verifiedFor(path, endpoint.signingSecret, target);
    expect(requests.map(({ request }) => request.headers["webhook-id"])).toEqual([delivery.id, delivery.id]);

    // Newest first (by when each delivery was created), two per page.
    const page1 = await deliveries(t, endpoint.id, "?limit=2");
    expect(page1.deliveries).toHaveLength(2);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = await deliveries(t, endpoint.id, `?limit=2&cursor=${encodeURIComponent(page1.nextCursor as string)}`);
    const all = [...page1.deliveries, ...page2.deliveries];
    expect(all.map((d) => d.submissionId).sort()).toEqual(sent.map((s) => s.submissionId).sort());
    const created = all.map((d) => d.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(page2.nextCursor).toBeNull();
  });

  test("startDeliveries is idempotent per (submission, endpoint): a redelivered submission sends nothing twice", async () => {
    const t = await formTarget("outbound-idempotent");
    const path = receiverPath("once");
    const endpoint = await addEndpoint(t, path);
    const sent = await submit(t.webhook);
    await deliveryWhen(t, endpoint.id, sent.submissionId, settled);
    const submission = await getSubmission(sent.submissionId);
    const form = await getForm(t.formId);
    // The consumer's submission handler running again (a redelivered message), three times at once.
    const eventAt = submission?.createdAt ?? "";
    await Promise.all([1, 2, 3].map(() => startDeliveries(submission as never, form as never, eventAt)));
    // Anything those runs queued has been handled by the stack's consumer.
    await pipelineBarrier();
    expect(verifiedFor(path, endpoint.signingSecret, sent.submissionId)).toHaveLength(1);
    const list = await deliveries(t, endpoint.id);
    expect(list.deliveries).toHaveLength(1);
    expect(list.deliveries[0]).toMatchObject({ status: "delivered", attemptCount: 1 });
  });

  test("deleting an endpoint ends its pending deliveries", async () => {
    const t = await formTarget("outbound-deleted");
    const path = receiverPath("deleted");
    receiver.script(path, Array(10).fill({ status: 500 }));
    const endpoint = await addEndpoint(t, path);
    const sent = await submit(t.webhook);
    await receiver.waitFor(path, 1);
    // Read the delivery while it still exists in the endpoint's list.
    const pending = await deliveryWhen(t, endpoint.id, sent.submissionId, (d) => d.attemptCount >= 1 && !d.inFlight);
    expect(pending.status).toBe("retrying");
    expect((await api("DELETE", `${base(t)}/${endpoint.id}`, { token: t.owner.token })).status).toBe(200);
    // The next attempt, due a second after the last, finds the endpoint gone and ends the delivery.
    await eventually("the delivery ended", async () => (await getDelivery(pending.id))?.status === "failed");
    const count = receiver.requests(path).length;
    await pipelineBarrier();
    expect(receiver.requests(path).length).toBe(count);
    expect(count).toBeLessThanOrEqual(2);
  });
});
