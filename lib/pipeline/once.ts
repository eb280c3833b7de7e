import { describeError, log } from "../log";
import { claimAction, completeAction, releaseAction } from "../store/actions";
import { CONSUMER_TIMEOUT_SECONDS } from "./consumer";

/**
 * A claim still `started` after this long belongs to a consumer that is gone: Lambda stops a
 * consumer invocation at its timeout, so a live one never holds a claim longer.
 */
export const CLAIM_STALE_AFTER_MS = CONSUMER_TIMEOUT_SECONDS * 1000;

export type OnceOutcome = "performed" | "already-done" | "busy";

/** A side effect: it answers nothing, or a note of what it did, kept on its claim. */
// biome-ignore lint/suspicious/noConfusingVoidType: an effect answers nothing, or a note
export type Effect = () => Promise<void | string>;

/**
 * Runs one side effect of processing a submission at most once per successful run, guarded by
 * its claim (lib/store/actions.ts). The effect may answer a short note of what it did (a
 * confirmation's "sent", or why it sent none), kept on the claim for the submission's page.
 * - done before (a redelivered message, a release of a processed submission) → skipped;
 * - claimed by another consumer less than CLAIM_STALE_AFTER_MS ago → "busy" (the caller retries
 *   the message later, by when that claim is done or stale);
 * - claimed but stale (its consumer crashed or timed out) → taken over;
 * - the effect fails → the claim is released and the error rethrown, so the message is retried
 *   and the effect runs again.
 * At-least-once window: a consumer that dies after the effect took place (SES accepted the
 * email) but before its claim is marked done leaves a `started` claim; once it is stale a
 * redelivery performs the effect a second time. The window is one DynamoDB write wide.
 */
export async function once(
  submissionId: string,
  action: string,
  effect: Effect,
  staleAfterMs = CLAIM_STALE_AFTER_MS,
): Promise<OnceOutcome> {
  const outcome = await claimAction(submissionId, action, { staleAfterMs });
  if (outcome.status === "done") return "already-done";
  if (outcome.status === "busy") return "busy";
  const { claim } = outcome;
  let note: string | undefined;
  try {
    note = (await effect()) ?? undefined;
  } catch (error) {
    // If the release itself fails, the claim goes stale and a later delivery takes it over.
    await releaseAction(claim).catch((releaseError: unknown) =>
      log.warn("action claim could not be released", { submissionId, action, ...describeError(releaseError) }),
    );
    throw error;
  }
  if (!(await completeAction(claim, Date.now(), note))) {
    // Another consumer found this claim stale and took it over: it may perform the effect again.
    log.warn("action claim was taken over before it was marked done", { submissionId, action });
  }
  return "performed";
}
