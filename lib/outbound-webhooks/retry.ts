import type { Principal } from "../auth/principal";
import { AppError, notFound } from "../errors";
import { nowIso } from "../ids";
import { queueAttempt } from "../outbound/messages";
import { getDelivery, scheduleManualAttempt } from "../store/outbound-deliveries";
import { deliveryView, findEndpoint } from "./endpoints";

/**
 * Replays a delivery now (same `webhook-id`, a fresh timestamp and signature). A delivered or
 * failed delivery gets exactly one more attempt; one still retrying has its next attempt brought
 * forward, and keeps its schedule if that attempt fails.
 */
export async function retryDelivery(principal: Principal, formId: string, endpointId: string, deliveryId: string) {
  const endpoint = await findEndpoint(principal, formId, endpointId);
  const delivery = await getDelivery(deliveryId);
  if (!delivery || delivery.endpointId !== endpoint.id || delivery.orgId !== principal.orgId) throw notFound("Delivery");
  if (!endpoint.isEnabled) {
    throw new AppError("OUTBOUND_WEBHOOK_DISABLED", "The outbound webhook is disabled; enable it before retrying a delivery");
  }
  if (delivery.leaseUntil !== undefined || !(await scheduleManualAttempt(delivery, nowIso()))) {
    throw new AppError("CONFLICT", "An attempt of this delivery is in progress; retry shortly");
  }
  await queueAttempt(delivery.id, delivery.attemptCount + 1, nowIso());
  const scheduled = await getDelivery(delivery.id);
  return { delivery: deliveryView(scheduled ?? delivery) };
}
