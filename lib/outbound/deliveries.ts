import { nowIso } from "../ids";
import type { Form } from "../store/forms";
import { createDelivery, type Delivery, type DeliveryChange, getDelivery } from "../store/outbound-deliveries";
import { kindOf, listFormEndpoints, type OutboundEndpoint, subscribes } from "../store/outbound-endpoints";
import type { Lead } from "../store/shapes";
import type { Submission } from "../store/submissions";
import { isForwardOnly } from "./forward-only";
import { queueAttempt } from "./messages";
import { deliveryIdFor, EVENT_TYPE, UPDATED_EVENT_TYPE } from "./payload";
import { maxAttempts } from "./schedule";

/** A delivery not attempted yet, due now: a submission's event or a test event. */
export function newDelivery(
  endpoint: Pick<OutboundEndpoint, "id" | "formId" | "orgId">,
  event: Pick<Delivery, "id" | "submissionId" | "eventType" | "lead" | "finalAttempt" | "change"> & { now: string },
): Delivery {
  const { now, ...what } = event;
  return {
    ...what,
    endpointId: endpoint.id,
    formId: endpoint.formId,
    orgId: endpoint.orgId,
    status: "pending",
    attemptCount: 0,
    attempts: [],
    attemptsOmitted: 0,
    nextAttemptAt: now,
    lastError: null,
    claimToken: null,
    deliveredAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Whether `endpoint` receives an event that happened at `eventAt` (ISO timestamps, compared as
 * text: both are `toISOString()`): an endpoint receives the events that happen after it exists,
 * as Svix's endpoints do, never one that happened before it was created and merely reached the
 * pipeline after it (a queue backlog, a retried message). docs/outbound-webhooks.md, "Which events reach an endpoint".
 */
export const receivesEventAt = (endpoint: Pick<OutboundEndpoint, "isEnabled" | "createdAt">, eventAt: string) =>
  endpoint.isEnabled && endpoint.createdAt <= eventAt;

const GRADE_RANK = { cold: 0, warm: 1, hot: 2 } as const;

/**
 * Whether a chat destination's filter lets `lead` through: its minimum grade, if any (webhooks
 * have none and receive every lead). A submission without a lead passes no minimum. Spam never
 * reaches here: the pipeline sends only submissions that are not spam (docs/notifications.md).
 */
export function passesFilter(endpoint: Pick<OutboundEndpoint, "kind" | "chat">, lead: Lead | undefined): boolean {
  const min = kindOf(endpoint) === "webhook" ? null : (endpoint.chat?.minGrade ?? null);
  if (min === null) return true;
  return lead !== undefined && GRADE_RANK[lead.grade] >= GRADE_RANK[min];
}

/**
 * Fans a processed submission out to its form's enabled outbound endpoints and chat destinations (called by the
 * consumer's submission handler once the lead is known). For each endpoint it creates the
 * delivery item, with an id derived from (submission, endpoint), by a conditional put, then
 * queues its first attempt as an internal message (./messages.ts); the attempts themselves run
 * from the queue (./attempts.ts), each endpoint on its own, so a slow or failing receiver never
 * holds up or repeats anything else.
 *
 * Idempotent per (submission, endpoint): a redelivered submission message creates nothing twice,
 * and re-queues the first attempt only for a delivery whose first attempt was never claimed (the
 * earlier run may have died between the put and the send; a duplicate message loses the claim
 * and ends). Never throws for a receiver; throws only when DynamoDB or SQS fails, after every
 * endpoint had its turn, so the whole message is retried and what finished is not redone.
 *
 * `eventAt` is when the event happened: the submission's `createdAt`, or the moment a moderator
 * released it from spam (lib/pipeline/process-submission.ts). Only endpoints that existed then
 * receive it (receivesEventAt).
 *
 * With `change` (a status, owner or tags change: lib/pipeline/process-change.ts) the event is
 * `submission.updated`, sent to the endpoints subscribed to it, and idempotent per (change,
 * endpoint) instead: the delivery id derives from the change's id.
 */
export async function startDeliveries(
  submission: Submission & { lead?: Lead },
  form: Form,
  eventAt: string,
  change?: DeliveryChange,
): Promise<void> {
  const eventType = change ? UPDATED_EVENT_TYPE : EVENT_TYPE;
  const endpoints = (await listFormEndpoints(form.id)).filter(
    (endpoint) =>
      subscribes(endpoint, eventType) && receivesEventAt(endpoint, eventAt) && passesFilter(endpoint, submission.lead),
  );
  // A forward-only form's values wait for its created deliveries only (./forward-only.ts).
  const forwardOnly = !change && isForwardOnly(form);
  const results = await Promise.allSettled(endpoints.map((endpoint) => startDelivery(submission, endpoint, forwardOnly, change)));
  const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} outbound deliveries could not be started`);
}

async function startDelivery(
  submission: Submission & { lead?: Lead },
  endpoint: OutboundEndpoint,
  forwardOnly: boolean,
  change: DeliveryChange | undefined,
): Promise<void> {
  const now = nowIso();
  const delivery: Delivery = {
    ...newDelivery(endpoint, {
      id: deliveryIdFor(change ? change.id : submission.id, endpoint.id),
      submissionId: submission.id,
      eventType: change ? UPDATED_EVENT_TYPE : EVENT_TYPE,
      // A change's delivery keeps no lead (its reasons quote submitted data): an attempt reads the
      // submission's, and its item outlives an erasure only as ids, names and statuses.
      lead: change ? null : (submission.lead ?? null),
      finalAttempt: maxAttempts(),
      ...(change ? { change } : {}),
      now,
    }),
    ...(forwardOnly ? { forwardOnly: true as const } : {}),
  };
  if (!(await createDelivery(delivery))) {
    const existing = await getDelivery(delivery.id);
    // Under way already (its first attempt was claimed), or gone.
    if (!existing || existing.attemptCount > 0 || existing.status !== "pending") return;
  }
  await queueAttempt(delivery.id, 1, now);
}
