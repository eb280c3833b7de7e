import type { Principal } from "../auth/principal";
import { AppError, notFound } from "../errors";
import { randomBase62 } from "../ids";
import { newDelivery } from "../outbound/deliveries";
import { queueAttempt } from "../outbound/messages";
import { TEST_EVENT_TYPE } from "../outbound/payload";
import { createDelivery } from "../store/outbound-deliveries";
import { getEndpoint, stampTestSend } from "../store/outbound-endpoints";
import { deliveryView, findEndpoint } from "./endpoints";

/**
 * "Send test event" (docs/outbound-webhooks.md, "Test events"): a signed `webhook.test` event
 * sent through the same delivery machinery as a submission's (a delivery item, an internal queue
 * message, the attempt runner with its SSRF guard at send time), so it shows in the endpoint's
 * delivery log with its attempt. It gets a single attempt, no automatic retries: the person
 * sending it wants to see it arrive or fail now, and replays it with the retry route if they
 * like. Test sends are paced per endpoint (TEST_EVENT_INTERVAL_MS) with one conditional write.
 */

/** At most one test event per endpoint in this window: a hammered button or a loop cannot flood a receiver. */
export const TEST_EVENT_INTERVAL_MS = 5_000;

const disabled = () =>
  new AppError("OUTBOUND_WEBHOOK_DISABLED", "The outbound webhook is disabled; enable it before sending a test event");

export async function sendTestEvent(principal: Principal, formId: string, endpointId: string, nowMs = Date.now()) {
  const endpoint = await findEndpoint(principal, formId, endpointId);
  if (!endpoint.isEnabled) throw disabled();
  const now = new Date(nowMs).toISOString();
  if (!(await stampTestSend(endpoint.formId, endpoint.id, now, new Date(nowMs - TEST_EVENT_INTERVAL_MS).toISOString()))) {
    // Rare: the endpoint changed since it was read (deleted, disabled); otherwise it is the pace.
    const current = await getEndpoint(endpoint.formId, endpoint.id);
    if (!current) throw notFound("Outbound webhook");
    if (!current.isEnabled) throw disabled();
    const last = Date.parse(current.lastTestAt ?? now);
    const waitSeconds = Math.max(1, Math.ceil((last + TEST_EVENT_INTERVAL_MS - nowMs) / 1000));
    throw new AppError(
      "RATE_LIMITED",
      `A test event was sent to this endpoint less than ${TEST_EVENT_INTERVAL_MS / 1000} seconds ago; wait a moment`,
      undefined,
      { "retry-after": String(waitSeconds) },
    );
  }
  const delivery = newDelivery(endpoint, {
    id: `dlv_${randomBase62(22)}`,
    submissionId: null,
    eventType: TEST_EVENT_TYPE,
    lead: null,
    finalAttempt: 1,
    now,
  });
  // A random id cannot collide; were it to, the put refuses rather than overwrite a log.
  if (!(await createDelivery(delivery, nowMs))) throw new AppError("CONFLICT", "Send the test event again");
  await queueAttempt(delivery.id, 1, now, nowMs);
  return { delivery: deliveryView(delivery) };
}
