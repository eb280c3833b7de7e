import { AppError } from "../errors";
import { describeError, log } from "../log";
import * as metrics from "../metrics/record";
import { forgetEvidence, recordEvidence } from "../spam/evidence";
import { type IntakeResult, type Marker, type MarkerHit, storeSubmission } from "../store/intake-markers";
import { countOnSiteDay } from "../store/site-days";
import type { Submission } from "../store/submissions";
import { countOnWebhook, uncountOnWebhook, type Webhook } from "../store/webhooks";

/**
 * The write round trip of an intake (lib/intake/intake.ts): the submission's write and what goes
 * beside it, in one of two shapes, each taking back what it did when the write does not store.
 */

type WebhookRef = Pick<Webhook, "id" | "source">;

/** Stored, or a repeat that got the first submission's result. */
export type StoreOutcome = { stored: boolean; result: IntakeResult };

/**
 * A repeat's answer: the first submission's result, unless the marker is an Idempotency-Key's and
 * the first request differed (Stripe's rule: a key names one request; reusing it for another is
 * the client's bug, answered 422 rather than by silently dropping the new data).
 */
export function repeatResult(marker: Marker, hit: MarkerHit): IntakeResult {
  if (marker.requestHash !== undefined && hit.requestHash !== undefined && hit.requestHash !== marker.requestHash) {
    throw new AppError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was used for a submission with different data in the last 24 hours; use a new key for new data",
    );
  }
  if (marker.requestHash !== undefined) metrics.idempotentRepeat();
  else metrics.duplicateAdsLead();
  return hit.result;
}

/** The submission's write, its contention answered as 503 (a 4xx tells an ads platform to give up). */
function store(submission: Submission, result: IntakeResult, markers: Marker[]) {
  return storeSubmission(submission, result, markers).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "CONFLICT") {
      throw new AppError("SERVICE_UNAVAILABLE", "The service is busy; retry shortly", undefined, { "retry-after": "1" });
    }
    throw error;
  });
}

/**
 * With repeat markers (Idempotency-Key, ads lead id), a repeat may lose the race inside the
 * transaction: the count goes beside it and is taken back if this request did not store (so the
 * write stays one round trip, as for a clean submission). The duplicate marker waits
 * for the outcome: the winner and a losing repeat share one marker, which the loser must not
 * remove.
 */
export async function storeWithRepeatMarkers(
  webhook: WebhookRef,
  submission: Submission,
  result: IntakeResult,
  markers: Marker[],
  print: string,
  now: number,
): Promise<StoreOutcome> {
  const [outcome, counted, daily] = await Promise.allSettled([
    store(submission, result, markers),
    countOnWebhook(webhook.id, submission.createdAt),
    countOnSiteDay(submission, submission.spam.isSpam),
  ]);
  const stored = outcome.status === "fulfilled" && outcome.value.stored;
  if (!stored)
    await Promise.all([
      counted.status === "fulfilled" ? uncount(webhook) : undefined,
      daily.status === "fulfilled" ? uncountDay(submission) : undefined,
    ]);
  if (outcome.status === "rejected") throw outcome.reason;
  if (!outcome.value.stored) return { stored: false, result: repeatResult(outcome.value.marker, outcome.value.first) };
  if (counted.status === "rejected")
    log.error("webhook count not updated", { webhookId: webhook.id, ...describeError(counted.reason) });
  if (daily.status === "rejected") logDayNotCounted(submission, daily.reason);
  await recordEvidence(webhook.source, print, now).catch((error: unknown) =>
    log.warn("duplicate marker not written", { webhookId: webhook.id, ...describeError(error) }),
  );
  return { stored: true, result };
}

/**
 * Without markers nothing can make the put lose, so the count and the duplicate marker go beside
 * it (two sequential round trips in all on a warm instance, docs/performance.md); if the put fails they are taken
 * back, best effort, before the error reaches the sender.
 */
export async function storeAndCount(
  webhook: WebhookRef,
  submission: Submission,
  result: IntakeResult,
  print: string,
  now: number,
): Promise<StoreOutcome> {
  const [outcome, after] = await Promise.allSettled([
    store(submission, result, []),
    afterStored(webhook, submission, print, now),
  ]);
  if (outcome.status === "rejected") {
    if (after.status === "fulfilled") await undoAfterStored(webhook, submission, print);
    throw outcome.reason;
  }
  return { stored: true, result };
}

/** Takes back a count whose submission was not stored by this request (best effort). */
async function uncount(webhook: WebhookRef): Promise<void> {
  await uncountOnWebhook(webhook.id).catch((error: unknown) =>
    log.warn("could not undo the count after a write that did not store", { webhookId: webhook.id, ...describeError(error) }),
  );
}

/** Takes back a daily count whose submission was not stored by this request (best effort). */
async function uncountDay(submission: Submission): Promise<void> {
  await countOnSiteDay(submission, submission.spam.isSpam, -1).catch((error: unknown) =>
    log.warn("could not undo the daily count after a write that did not store", {
      siteId: submission.siteId,
      ...describeError(error),
    }),
  );
}

/**
 * The site's daily count is not worth failing a stored submission for: the sender gets its 200
 * and the day reads one short (logged as an error, with the alarms on logged errors).
 */
function logDayNotCounted(submission: Submission, reason: unknown): void {
  log.error("daily count not updated", { siteId: submission.siteId, submissionId: submission.id, ...describeError(reason) });
}

/** Takes back what afterStored did for a submission whose write then failed (best effort). */
async function undoAfterStored(webhook: WebhookRef, submission: Submission, print: string): Promise<void> {
  await Promise.all([
    uncount(webhook),
    uncountDay(submission),
    forgetEvidence(webhook.source, print).catch((error: unknown) =>
      log.warn("could not undo the duplicate marker after a failed write", { webhookId: webhook.id, ...describeError(error) }),
    ),
  ]);
}

/**
 * What follows a stored submission: the webhook's count and the site's daily count (outside any
 * transaction by design: they are the hottest items of a busy webhook and site) and the duplicate marker, only now so that a failed
 * write's retry or a repeat that lost a race is not counted as a duplicate (docs/spam.md). The
 * submission is durable already, so a failure here is logged and the sender still gets its 200:
 * a 5xx would make it retry and store the submission twice.
 */
async function afterStored(webhook: WebhookRef, submission: Submission, print: string, now: number): Promise<void> {
  const [count, daily, evidence] = await Promise.allSettled([
    countOnWebhook(webhook.id, submission.createdAt),
    countOnSiteDay(submission, submission.spam.isSpam),
    recordEvidence(webhook.source, print, now),
  ]);
  if (count.status === "rejected")
    log.error("webhook count not updated", { webhookId: webhook.id, ...describeError(count.reason) });
  if (daily.status === "rejected") logDayNotCounted(submission, daily.reason);
  if (evidence.status === "rejected")
    log.warn("duplicate marker not written", { webhookId: webhook.id, ...describeError(evidence.reason) });
}
