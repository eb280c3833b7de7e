import type { Principal } from "../auth/principal";
import { notFound } from "../errors";
import { findForm } from "../forms";
import { shownUrl } from "../outbound/chat/kinds";
import { type Delivery, type DeliveryStatus, latestDelivery, listEndpointDeliveries } from "../store/outbound-deliveries";
import {
  deleteEndpoint,
  eventsOf,
  getEndpoint,
  kindOf,
  listFormEndpoints,
  type OutboundEndpoint,
} from "../store/outbound-endpoints";

/**
 * The outbound webhooks API of a form (docs/api.md, "Outbound webhooks"). This folder is the
 * management half, what the routes of functions/outbound-webhooks/ call; the delivery machinery
 * it drives (payload, signing, SSRF guard, queue messages, attempts) is lib/outbound/, which
 * never imports it (docs/architecture.md).
 *
 * Here: the reads, deletion and the views every route answers with. Creating and changing an
 * endpoint (the SSRF guard, signing secrets) is in ./endpoint-changes.ts, replaying a delivery
 * (the queue) in ./retry.ts, a test event in ./test-event.ts and a submission's deliveries in
 * ./submission-deliveries.ts, so a function loads only the modules its route uses
 * (docs/performance.md).
 */

/** The endpoint `endpointId` of a form of the caller's organization, or 404. */
export async function findEndpoint(principal: Principal, formId: string, endpointId: string): Promise<OutboundEndpoint> {
  const form = await findForm(principal, formId);
  const endpoint = await getEndpoint(form.id, endpointId);
  if (!endpoint || endpoint.orgId !== principal.orgId) throw notFound("Outbound webhook");
  return endpoint;
}

export function deliveryView(delivery: Delivery) {
  return {
    id: delivery.id,
    endpointId: delivery.endpointId,
    submissionId: delivery.submissionId,
    eventType: delivery.eventType,
    changeId: delivery.change?.id ?? null,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    attempts: (delivery.attempts ?? []).map((a) => ({
      number: a.number,
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
      attemptedAt: a.attemptedAt,
      nextAttemptAt: a.nextAttemptAt,
      trigger: a.trigger,
    })),
    attemptsOmitted: delivery.attemptsOmitted ?? 0,
    inFlight: delivery.leaseUntil !== undefined,
    nextAttemptAt: delivery.status === "pending" || delivery.status === "retrying" ? delivery.nextAttemptAt : null,
    lastError: delivery.lastError ?? null,
    deliveredAt: delivery.deliveredAt,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
  };
}

/**
 * Never the signing secret: it is shown once, at creation. A chat destination's URL is its
 * secret: shown masked (shownUrl), always.
 */
export function endpointView(endpoint: OutboundEndpoint, last?: Delivery | null) {
  const lastAttempt = last?.attempts?.at(-1);
  return {
    id: endpoint.id,
    formId: endpoint.formId,
    kind: kindOf(endpoint),
    url: shownUrl(endpoint),
    description: endpoint.description,
    chat: endpoint.chat ?? null,
    events: [...eventsOf(endpoint)],
    isEnabled: endpoint.isEnabled,
    disabledReason: endpoint.disabledReason,
    disabledAt: endpoint.disabledAt,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
    ...(last === undefined
      ? {}
      : {
          lastDelivery: last
            ? {
                id: last.id,
                submissionId: last.submissionId,
                status: last.status,
                attemptCount: last.attemptCount,
                lastStatusCode: lastAttempt?.statusCode ?? null,
                lastAttemptAt: lastAttempt?.attemptedAt ?? null,
                nextAttemptAt: deliveryView(last).nextAttemptAt,
                createdAt: last.createdAt,
              }
            : null,
        }),
  };
}

export async function listEndpoints(principal: Principal, formId: string) {
  const form = await findForm(principal, formId);
  const endpoints = (await listFormEndpoints(form.id)).filter((e) => e.orgId === principal.orgId);
  const latest = await Promise.all(endpoints.map((e) => latestDelivery(e.id)));
  return { outboundWebhooks: endpoints.map((e, i) => endpointView(e, latest[i] ?? null)) };
}

export async function removeEndpoint(principal: Principal, formId: string, endpointId: string) {
  const endpoint = await findEndpoint(principal, formId, endpointId);
  if ((await deleteEndpoint(endpoint.formId, endpoint.id)) === "NOT_FOUND") throw notFound("Outbound webhook");
  return { message: "Outbound webhook deleted; its pending deliveries end as failed" };
}

export async function listDeliveries(
  principal: Principal,
  formId: string,
  endpointId: string,
  limit: number,
  cursor?: string,
  status?: DeliveryStatus,
) {
  const endpoint = await findEndpoint(principal, formId, endpointId);
  const page = await listEndpointDeliveries(endpoint.id, limit, cursor, status);
  return { deliveries: page.items.map(deliveryView), nextCursor: page.nextCursor };
}
