import { log } from "../log";
import { startDeliveries } from "../outbound/deliveries";
import { type RetryLater, retryLater } from "../queue-message";
import { getForm } from "../store/forms";
import type { DeliveryChange } from "../store/outbound-deliveries";
import { getSubmissionConsistent } from "../store/submissions";
import * as z from "../validation";
import type { RecordHandler } from "./outcome";

/**
 * The `submission.updated` event (docs/outbound-webhooks.md): a change entry of a submission's
 * timeline (`type: "submission_change"`, written in the same transaction as the change of its
 * status, owner or tags) is the outbox. Its stream INSERT reaches the intake queue
 * (infra/intake-filter.ts), and here it becomes a delivery per endpoint of the form subscribed to
 * `submission.updated` that existed when the change was made, as a new submission's does
 * (lib/outbound/deliveries.ts, idempotent per change and endpoint: a redelivered record creates
 * nothing twice).
 *
 * Nothing is sent, and the record is done, when the submission is gone, is spam (flagged since
 * the change: spam triggers nothing), or had its values deleted by a forward-only form (the form
 * promised to keep no values, and an event without them says nothing); nor when its form is
 * gone. A change that reaches the pipeline before the submission's own `submission.created`
 * (no lead stored yet) waits for it, so a receiver hears of a submission before its changes;
 * only for a while: a submission stored before leads existed never gets one.
 */

/**
 * How long after its arrival a submission without a lead holds its changes back. Each wait is a
 * receive of the message (the queue's visibility timeout, 180 s, apart); the fifth receive is the
 * last before the DLQ, about 12 minutes after the first: by then the wait has ended.
 */
const WAIT_FOR_CREATED_MS = 10 * 60 * 1000;

const actor = z.object({
  type: z.enum(["member", "api_key"]),
  id: z.string(),
  name: z.string(),
});
const ids = z.array(z.string());
const changeRecord = z.object({
  id: z.string().check(z.minLength(1)),
  submissionId: z.string().check(z.minLength(1)),
  at: z.iso.datetime(),
  actor,
  changes: z.object({
    status: z.optional(z.object({ from: z.string(), to: z.string() })),
    ownerId: z.optional(z.object({ from: z.nullable(z.string()), to: z.nullable(z.string()) })),
    tags: z.optional(z.object({ added: ids, removed: ids })),
  }),
});

// biome-ignore lint/suspicious/noConfusingVoidType: a handler resolves with nothing (done) or a RetryLater
export async function processChange(submissionId: string, change: DeliveryChange, now = Date.now()): Promise<void | RetryLater> {
  const fields = { submissionId, changeId: change.id };
  const submission = await getSubmissionConsistent(submissionId);
  if (!submission) return log.info("submission gone: its change is not sent", fields);
  if (submission.isSpam) return log.info("submission is spam: its change is not sent", fields);
  if (submission.valuesDeletedAt)
    return log.info("submission's values were deleted (forward-only): its change is not sent", fields);
  const form = await getForm(submission.formId, { consistent: true });
  if (!form || form.deletedAt) return log.info("submission's form is gone: its change is not sent", fields);
  if (!submission.lead && now - Date.parse(submission.createdAt) < WAIT_FOR_CREATED_MS) {
    return retryLater("the submission's own submission.created has not been processed yet");
  }
  await startDeliveries(submission, form, change.at, change);
}

/** RECORD_HANDLERS.submission_change: a change entry inserted with a status, owner or tags change. */
export const handleChangeRecord: RecordHandler = (item) => {
  const { submissionId, id, at, actor, changes } = changeRecord.parse(item);
  return processChange(submissionId, { id, at, actor, changes });
};
