import { AppError } from "../errors";
import { describeError, log } from "../log";
import * as metrics from "../metrics/record";
import { forgetEvidence, recordEvidence } from "../spam/evidence";
import { type IntakeResult, type Marker, type MarkerHit, storeSubmission } from "../store/intake-markers";
import type { Submission } from "../store/submissions";
import type { Webhook } from "../store/webhooks";

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
 * transaction. The duplicate marker waits for the outcome: the winner and a losing repeat share
 * one marker, which the loser must not remove. (Counts follow from the table stream: the
 * bookkeeper, lib/bookkeeping/.)
 */
export async function storeWithRepeatMarkers(
  webhook: WebhookRef,
  submission: Submission,
  result: IntakeResult,
  markers: Marker[],
  print: string,
  now: number,
): Promise<StoreOutcome> {
  const outcome = await store(submission, result, markers);
  if (!outcome.stored) return { stored: false, result: repeatResult(outcome.marker, outcome.first) };
  await recordEvidence(webhook.source, print, now).catch((error: unknown) =>
    log.warn("duplicate marker not written", { webhookId: webhook.id, ...describeError(error) }),
  );
  return { stored: true, result };
}

/**
 * Without markers nothing can make the put lose, so the duplicate marker goes beside it (two
 * sequential round trips in all on a warm instance, docs/performance.md); if the put fails it is
 * taken back, best effort, before the error reaches the sender.
 */
export async function storeWithDuplicateMarker(
  webhook: WebhookRef,
  submission: Submission,
  result: IntakeResult,
  print: string,
  now: number,
): Promise<StoreOutcome> {
  const [outcome, after] = await Promise.allSettled([store(submission, result, []), afterStored(webhook, print, now)]);
  if (outcome.status === "rejected") {
    if (after.status === "fulfilled") await undoAfterStored(webhook, print);
    throw outcome.reason;
  }
  return { stored: true, result };
}

/** Takes back what afterStored did for a submission whose write then failed (best effort). */
async function undoAfterStored(webhook: WebhookRef, print: string): Promise<void> {
  await forgetEvidence(webhook.source, print).catch((error: unknown) =>
    log.warn("could not undo the duplicate marker after a failed write", { webhookId: webhook.id, ...describeError(error) }),
  );
}

/**
 * What follows a stored submission: the duplicate marker, only now so that a failed write's
 * retry or a repeat that lost a race is not counted as a duplicate (docs/spam.md). The
 * submission is durable already, so a failure here is logged and the sender still gets its 200:
 * a 5xx would make it retry and store the submission twice.
 */
async function afterStored(webhook: WebhookRef, print: string, now: number): Promise<void> {
  await recordEvidence(webhook.source, print, now).catch((error: unknown) =>
    log.warn("duplicate marker not written", { webhookId: webhook.id, ...describeError(error) }),
  );
}
