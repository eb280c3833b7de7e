import type { Principal } from "../auth";
import { AppError, notFound } from "../errors";
import { findForm } from "../forms";
import { nowIso, randomBase62 } from "../ids";
import { INTERNAL_MESSAGE_VERSION, newMessageToken, sendDeliveryMessage } from "./messages";
import { newSigningSecret } from "./signing";
import { checkTargetUrl, MAX_URL_LENGTH, RefusedTarget } from "./ssrf";
import * as z from "../validation";
import { type Delivery, getDelivery, latestDelivery, listEndpointDeliveries, scheduleManualAttempt } from "./delivery-store";
import {
  deleteEndpoint,
  getEndpoint,
  insertEndpoint,
  listFormEndpoints,
  MAX_ENDPOINTS_PER_FORM,
  type OutboundEndpoint,
  updateEndpoint,
} from "./endpoint-store";

/** The outbound webhooks API of a form (docs/api.md, "Outbound webhooks"). */

/** Request fields of the create and update routes (the SSRF guard checks the URL further). */
export const endpointUrl = z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_URL_LENGTH));
export const endpointDescription = z.nullable(z.string().check(z.trim(), z.maxLength(500)));

export const newEndpointId = () => `ep_${randomBase62(22)}`;

async function checkedUrl(url: string): Promise<string> {
  try {
    return (await checkTargetUrl(url)).toString();
  } catch (error) {
    if (error instanceof RefusedTarget) throw new AppError("OUTBOUND_WEBHOOK_URL_NOT_ALLOWED", error.message);
    throw error;
  }
}

/** The endpoint `endpointId` of a form of the caller's organization, or 404. */
async function findEndpoint(principal: Principal, formId: string, endpointId: string): Promise<OutboundEndpoint> {
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

/** Never the signing secret: it is shown once, at creation. */
function endpointView(endpoint: OutboundEndpoint, last?: Delivery | null) {
  const lastAttempt = last?.attempts?.at(-1);
  return {
    id: endpoint.id,
    formId: endpoint.formId,
    url: endpoint.url,
    description: endpoint.description,
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

export async function createEndpoint(principal: Principal, formId: string, input: { url: string; description?: string | null }) {
  const form = await findForm(principal, formId);
  const url = await checkedUrl(input.url);
  const now = nowIso();
  const endpoint: OutboundEndpoint = {
    id: newEndpointId(),
    formId: form.id,
    orgId: form.orgId,
    siteId: form.siteId,
    url,
    description: input.description ?? null,
    isEnabled: true,
    signingSecret: newSigningSecret(),
    disabledReason: null,
    disabledAt: null,
    createdAt: now,
    updatedAt: now,
  };
  if ((await insertEndpoint(endpoint)) === "LIMIT") {
    throw new AppError(
      "OUTBOUND_WEBHOOK_LIMIT_REACHED",
      `A form can have at most ${MAX_ENDPOINTS_PER_FORM} outbound webhooks; delete one first`,
    );
  }
  return {
    id: endpoint.id,
    formId: endpoint.formId,
    url: endpoint.url,
    description: endpoint.description,
    isEnabled: endpoint.isEnabled,
    signingSecret: endpoint.signingSecret,
    createdAt: endpoint.createdAt,
  };
}

export async function listEndpoints(principal: Principal, formId: string) {
  const form = await findForm(principal, formId);
  const endpoints = (await listFormEndpoints(form.id)).filter((e) => e.orgId === principal.orgId);
  const latest = await Promise.all(endpoints.map((e) => latestDelivery(e.id)));
  return { outboundWebhooks: endpoints.map((e, i) => endpointView(e, latest[i] ?? null)) };
}

export interface EndpointUpdate {
  url?: string;
  description?: string | null;
  isEnabled?: boolean;
}

export async function editEndpoint(principal: Principal, formId: string, endpointId: string, update: EndpointUpdate) {
  const endpoint = await findEndpoint(principal, formId, endpointId);
  const url = update.url !== undefined ? await checkedUrl(update.url) : undefined;
  const reenable = update.isEnabled === true && !endpoint.isEnabled;
  const saved = await updateEndpoint(
    endpoint.formId,
    endpoint.id,
    {
      ...(url !== undefined ? { url } : {}),
      ...(update.description !== undefined ? { description: update.description } : {}),
      ...(update.isEnabled !== undefined ? { isEnabled: update.isEnabled } : {}),
      ...(reenable ? { disabledReason: null, disabledAt: null } : {}),
    },
    nowIso(),
  );
  if (!saved) throw notFound("Outbound webhook");
  return endpointView(saved, (await latestDelivery(saved.id)) ?? null);
}

export async function removeEndpoint(principal: Principal, formId: string, endpointId: string) {
  const endpoint = await findEndpoint(principal, formId, endpointId);
  if (!(await deleteEndpoint(endpoint.formId, endpoint.id))) throw notFound("Outbound webhook");
  return { message: "Outbound webhook deleted; its pending deliveries end as failed" };
}

export async function listDeliveries(principal: Principal, formId: string, endpointId: string, limit: number, cursor?: string) {
  const endpoint = await findEndpoint(principal, formId, endpointId);
  const page = await listEndpointDeliveries(endpoint.id, limit, cursor);
  return { deliveries: page.items.map(deliveryView), nextCursor: page.nextCursor };
}

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
  await sendDeliveryMessage({
    v: INTERNAL_MESSAGE_VERSION,
    kind: "delivery",
    deliveryId: delivery.id,
    attempt: delivery.attemptCount + 1,
    dueAt: nowIso(),
    token: newMessageToken(),
  });
  const scheduled = await getDelivery(delivery.id);
  return { delivery: deliveryView(scheduled ?? delivery) };
}
