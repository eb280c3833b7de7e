import { loadConfig } from "../config";
import { epochSeconds, nowIso } from "../ids";
import { describeError, log } from "../log";
import * as metrics from "../metrics/record";
import { type RetryLater, retryLater } from "../queue-message";
import { clearEndpointFailing, markEndpointFailing } from "../store/failing-endpoints";
import { getForm } from "../store/forms";
import { valuesPastBound } from "../store/forward-markers";
import {
  claimAttempt,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryStatus,
  endDelivery,
  getDelivery,
  MAX_LOGGED_ATTEMPTS,
  recordAttempt,
} from "../store/outbound-deliveries";
import { getEndpoint, kindOf, type OutboundEndpoint, updateEndpoint } from "../store/outbound-endpoints";
import { getSubmission } from "../store/submissions";
import { isChatKind } from "./chat/kinds";
import { PLATFORMS } from "./chat/platforms";
import { chatRequest } from "./chat/request";
import { strip, stripIfDone, VALUES_GONE } from "./forward-only";
import { type HttpAttempt, postWebhook } from "./http";
import { type DeliveryMessage, queueAttempt, sendDeliveryMessage } from "./messages";
import { submissionCreatedPayload, submissionUpdatedPayload, testEventPayload } from "./payload";
import { type AttemptOutcome, attemptError, attemptOutcome } from "./schedule";
import { deliveryHeaders } from "./signing";
import { privateTargetsAllowed } from "./ssrf";
import { type ChangeContext, changeContext, changeSummary } from "./triage";

/**
 * Runs delivery attempts from internal queue messages (./messages.ts). The rules that make a
 * redelivered, duplicated or lost message harmless:
 *
 * - A message names the attempt number it may run. The attempt is claimed with a conditional
 *   update (`attemptCount` from n-1 to n, no attempt in flight) before anything is sent, so an
 *   attempt is sent at most once however many copies of the message arrive.
 * - The claim sets a lease (`leaseUntil`) for as long as an attempt can take. A copy that finds
 *   the attempt in flight comes back later (retryLater); one that finds the lease expired (the
 *   runner died mid-attempt) records the attempt as interrupted and schedules the next one.
 * - The result is recorded before anything else (a success first of all, so it is never sent
 *   again); then the next attempt's message is sent, and only then is this message finished. A
 *   message redelivered after recording but before sending is recognised by its token
 *   (`claimToken`) and sends the next message again. A duplicate next message is harmless: it
 *   loses the claim and ends.
 * - A message that arrives before its attempt is due is sent again with the next delay (SQS
 *   delays stop at 15 minutes) and finished: the chain that carries retries over hours.
 * - A forward-only form's delivery (./forward-only.ts) that ends (delivered or failed) checks
 *   whether its submission's values can go; a redelivered message that finds it ended checks
 *   again. An attempt whose submission's values are gone ends as failed, never sending an empty event.
 */

const ACTIVE: ReadonlySet<DeliveryStatus> = new Set(["pending", "retrying"]);

/** How long a claimed attempt counts as in flight: its HTTP timeout plus a margin for the writes around it. */
const leaseMs = () => loadConfig().OUTBOUND_TIMEOUT_MS + 60_000;

// biome-ignore lint/suspicious/noConfusingVoidType: a handler resolves with nothing (done) or a RetryLater
export async function handleDeliveryMessage(message: DeliveryMessage, now = Date.now()): Promise<void | RetryLater> {
  const delivery = await getDelivery(message.deliveryId);
  // Expired (TTL) or never created: nothing to do.
  if (!delivery) return;
  if (delivery.attemptCount >= message.attempt) return settleClaimed(delivery, message, now);
  if (delivery.attemptCount !== message.attempt - 1 || !ACTIVE.has(delivery.status)) return;
  if (delivery.leaseUntil !== undefined) return retryLater(`attempt ${delivery.attemptCount} of ${delivery.id} is in flight`);
  const due = Date.parse(delivery.nextAttemptAt ?? message.dueAt);
  if (due > now) {
    await sendDeliveryMessage({ ...message, dueAt: new Date(due).toISOString() }, now);
    return;
  }
  await runAttempt(delivery, message.attempt, message.token);
}

/** A message whose attempt was already claimed (by itself before a redelivery, or by another copy). */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler resolves with nothing (done) or a RetryLater
async function settleClaimed(delivery: Delivery, message: DeliveryMessage, now: number): Promise<void | RetryLater> {
  if (delivery.attemptCount > message.attempt) return;
  if (delivery.leaseUntil !== undefined) {
    if (delivery.leaseUntil > now) return retryLater(`attempt ${delivery.attemptCount} of ${delivery.id} is in flight`);
    return recoverInterrupted(delivery, message.token);
  }
  if (delivery.claimToken === message.token && delivery.status === "retrying" && delivery.nextAttemptAt) {
    await queueAttempt(delivery.id, delivery.attemptCount + 1, delivery.nextAttemptAt);
  }
  if (delivery.claimToken === message.token) await afterEnd(delivery, delivery.status);
}

/** A forward-only form's delivery that ended may be the last thing its submission's values wait for. */
async function afterEnd(delivery: Delivery, status: DeliveryStatus): Promise<void> {
  if (!delivery.forwardOnly || delivery.submissionId === null || ACTIVE.has(status)) return;
  await stripIfDone(delivery.submissionId, delivery.formId);
}

async function runAttempt(seen: Delivery, attempt: number, token: string): Promise<void> {
  const endpoint = await getEndpoint(seen.formId, seen.endpointId);
  const ended = !endpoint ? "the endpoint was deleted" : !endpoint.isEnabled ? "the endpoint is disabled" : undefined;
  if (ended || !endpoint) {
    await endDelivery(seen.id, seen.attemptCount, ended ?? "", nowIso());
    await afterEnd(seen, "failed");
    return;
  }
  const kind = kindOf(endpoint);
  const chat = isChatKind(kind) ? kind : null;
  // A test event carries no submission; a submission's event is read afresh at every attempt. A
  // chat message also names the form and labels its fields: the form is read beside it.
  const [submission, form] = await Promise.all([
    seen.submissionId === null ? null : getSubmission(seen.submissionId),
    chat ? getForm(endpoint.formId) : undefined,
  ]);
  if (submission === undefined) {
    await endDelivery(seen.id, seen.attemptCount, "the submission was deleted", nowIso());
    return;
  }
  if (submission && valuesPastBound(submission, Date.now())) {
    // A forward-only submission past its bound (its marker's TTL may come days late): its values
    // go now, and this delivery ends without sending them.
    await strip(submission.id, "bound");
    await endDelivery(seen.id, seen.attemptCount, VALUES_GONE, nowIso());
    return;
  }
  if (submission?.valuesDeletedAt) {
    await endDelivery(seen.id, seen.attemptCount, VALUES_GONE, nowIso());
    return;
  }
  // A change's event shows the submission's status, owner and tags now, with names (./triage.ts).
  const change = submission && seen.change ? { ...seen.change, context: await changeContext(submission, seen.change) } : null;

  const leaseUntil = Date.now() + leaseMs();
  const delivery = await claimAttempt(seen.id, attempt, token, leaseUntil);
  // Another copy of the message claimed this attempt first.
  if (!delivery) return;

  const attemptedAt = new Date();
  const request = chat
    ? chatRequest(chat, endpoint, delivery, submission, form, change ? changeSummary(change, change.context) : undefined)
    : webhookRequest(endpoint, delivery, submission, attemptedAt, change?.context);
  const config = loadConfig();
  // The URL is never logged: a chat destination's is its secret (docs/notifications.md).
  const response = await postWebhook({
    url: endpoint.url,
    ...request,
    timeoutMs: config.OUTBOUND_TIMEOUT_MS,
    allowPrivate: privateTargetsAllowed(),
  });
  const outcome = attemptOutcome(response, attempt, delivery.finalAttempt, chat ? { gone: PLATFORMS[chat].gone } : {});
  log.info("outbound webhook attempt", {
    deliveryId: delivery.id,
    endpointId: endpoint.id,
    kind,
    attempt,
    statusCode: response.statusCode,
    durationMs: response.durationMs,
    outcome: outcome.kind,
    ...(response.error ? { error: response.error } : {}),
  });
  if (outcome.kind === "disable-endpoint") {
    // Before the record: were the record lost, the attempt would be recovered as interrupted and
    // the next one would find the endpoint disabled; the reverse order could leave it enabled.
    await updateEndpoint(
      endpoint.formId,
      endpoint.id,
      {
        isEnabled: false,
        disabledReason: chat
          ? `${PLATFORMS[chat].name} answered ${response.statusCode}: the webhook was deleted, or its channel archived`
          : "The receiver answered 410 Gone",
        disabledAt: nowIso(),
      },
      nowIso(),
    );
  }
  await finishAttempt(delivery, attempt, leaseUntil, token, response, attemptedAt, outcome, endpoint);
}

/** A Standard Webhooks request: the event, signed afresh for this attempt. */
function webhookRequest(
  endpoint: OutboundEndpoint,
  delivery: Delivery,
  submission: Parameters<typeof submissionCreatedPayload>[0] | null,
  at: Date,
  context: ChangeContext | undefined,
) {
  const body = !submission
    ? testEventPayload(endpoint, delivery.createdAt)
    : delivery.change && context
      ? submissionUpdatedPayload(submission, delivery.lead, context.triage, delivery.change)
      : submissionCreatedPayload(submission, delivery.lead, delivery.createdAt);
  // Every webhook has its secret; only chat destinations (which never come here) have none.
  return { headers: deliveryHeaders(endpoint.signingSecret ?? "", delivery.id, epochSeconds(at), body), body };
}

/** The runner died mid-attempt (its lease expired): the attempt counts, as interrupted. */
async function recoverInterrupted(delivery: Delivery, token: string): Promise<void> {
  const leaseUntil = delivery.leaseUntil as number;
  const response: HttpAttempt = {
    statusCode: null,
    durationMs: null,
    error: "the attempt was interrupted before its answer was recorded",
    retryAfter: null,
    location: null,
    refused: false,
  };
  const outcome = attemptOutcome(response, delivery.attemptCount, delivery.finalAttempt);
  log.warn("outbound webhook attempt interrupted", { deliveryId: delivery.id, attempt: delivery.attemptCount });
  await finishAttempt(delivery, delivery.attemptCount, leaseUntil, token, response, new Date(leaseUntil - leaseMs()), outcome);
}

/** An attempt's outcome as the OutboundDeliveries metric names it (docs/metrics.md). */
const OUTBOUND_OUTCOME = {
  delivered: "delivered",
  retry: "retried",
  "give-up": "gave_up",
  "disable-endpoint": "endpoint_disabled",
} as const satisfies Record<AttemptOutcome["kind"], string>;

async function finishAttempt(
  delivery: Delivery,
  attempt: number,
  leaseUntil: number,
  token: string,
  response: HttpAttempt,
  attemptedAt: Date,
  outcome: AttemptOutcome,
  /** As read before the attempt; undefined for an interrupted attempt, which leaves the site's failing list as it is. */
  endpoint?: OutboundEndpoint,
): Promise<void> {
  const now = nowIso();
  const nextAttemptAt = outcome.kind === "retry" ? new Date(Date.now() + outcome.afterMs).toISOString() : null;
  const status: DeliveryStatus = outcome.kind === "delivered" ? "delivered" : outcome.kind === "retry" ? "retrying" : "failed";
  const entry: DeliveryAttempt = {
    number: attempt,
    statusCode: response.statusCode,
    durationMs: response.durationMs,
    error: attemptError(response, outcome, endpoint !== undefined && isChatKind(kindOf(endpoint))),
    attemptedAt: attemptedAt.toISOString(),
    nextAttemptAt,
    trigger: delivery.manual ? "manual" : "automatic",
  };
  const attempts = [...(delivery.attempts ?? []), entry];
  const overflow = Math.max(0, attempts.length - MAX_LOGGED_ATTEMPTS);
  const recorded = await recordAttempt(
    delivery.id,
    attempt,
    leaseUntil,
    {
      attempts: attempts.slice(overflow),
      attemptsOmitted: (delivery.attemptsOmitted ?? 0) + overflow,
      status,
      nextAttemptAt,
      deliveredAt: status === "delivered" ? now : delivery.deliveredAt,
      claimToken: token,
    },
    now,
  );
  if (!recorded) {
    log.warn("outbound webhook attempt recorded elsewhere", { deliveryId: delivery.id, attempt });
    return;
  }
  metrics.outbound(OUTBOUND_OUTCOME[outcome.kind]);
  await Promise.all([
    nextAttemptAt ? queueAttempt(delivery.id, attempt + 1, nextAttemptAt) : undefined,
    endpoint ? noteEndpointHealth(endpoint, entry, status, delivery.id) : undefined,
    afterEnd(delivery, status),
  ]);
}

/**
 * Keeps the site's list of failing endpoints (the overview's) in step with the attempt just
 * recorded, beside the next attempt's message. Best effort: the list is a view, not worth failing
 * the delivery's message for (its redelivery would only find the attempt recorded).
 */
async function noteEndpointHealth(
  endpoint: OutboundEndpoint,
  entry: DeliveryAttempt,
  status: DeliveryStatus,
  deliveryId: string,
) {
  const write =
    status === "delivered"
      ? endpoint.failing === undefined
        ? undefined
        : clearEndpointFailing(endpoint, entry.attemptedAt)
      : markEndpointFailing(endpoint, {
          deliveryId,
          status: status === "failed" ? "failed" : "retrying",
          statusCode: entry.statusCode,
          error: entry.error,
          failedAt: entry.attemptedAt,
          nextAttemptAt: entry.nextAttemptAt,
        });
  await write?.catch((error: unknown) =>
    log.warn("failing endpoint list not updated", { endpointId: endpoint.id, ...describeError(error) }),
  );
}
