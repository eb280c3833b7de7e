import { type Lead, qualifyLead } from "../leads";
import { log } from "../log";
import * as metrics from "../metrics/record";
import { CONFIRM_ACTION } from "../notifications/confirmation-notes";
import { carbonCopied, notificationEmail } from "../notifications/email";
import { anyRecipient, submissionRecipients } from "../notifications/member-choices";
import { sendRecorded } from "../notifications/send-recorded";
import { EMAIL_KINDS } from "../notifications/suppression";
import { startDeliveries } from "../outbound/deliveries";
import { finishEmails, forwardBound, isForwardOnly, startForwarding, strip } from "../outbound/forward-only";
import { type RetryLater, retryLater } from "../queue-message";
import { type FieldType, type Form, getForm } from "../store/forms";
import { valuesPastBound } from "../store/forward-markers";
import { listNotifiedMembers, type NotifiedMember } from "../store/member-notifications";
import { withdrawRelease } from "../store/releases";
import { getSubmissionConsistent, type StoredSubmission, storeLeadOnce } from "../store/submissions";
import * as z from "../validation";
import { confirmSubmission, confirms } from "./confirm";
import { type Effect, once } from "./once";
import type { RecordHandler } from "./outcome";

/**
 * What happens after a submission is stored, for one submission id, whether it came
 * as an inserted non-spam submission or as a release from spam (infra/intake-filter.ts):
 * 1. qualify: the lead rules (lib/leads.ts) over the data and the form's field types; stored once
 *    on the submission. Storing it is where the pipeline takes the submission up: from then on
 *    it finishes even if the submission is flagged meanwhile, and unflagging no longer releases.
 * 2. notify: one email to the form's notifyEmails and the members who chose an email per
 *    submission (lib/notifications/member-choices.ts) through SES, guarded by its claim (once.ts).
 * 3. confirm: when the form asks for it, one email to the submitter, under its own claim and
 *    rules (./confirm.ts).
 * 4. outbound: the form's outbound webhooks (lib/outbound/deliveries.ts, idempotent per endpoint).
 * A failed step fails the message after the others ran; the retry redoes only what did not
 * finish. Nothing happens for a submission that is gone, whose form is gone, or that is spam.
 * A forward-only form's submission (lib/outbound/forward-only.ts) gets its marker before step 2, and once
 * its emails are final, its values are deleted when its deliveries are final too; one whose
 * values are already deleted (its bound passed) is not processed again.
 */

/** The claim names of the side effects (keys.action). */
export const ACTIONS = { notify: "notify", confirm: CONFIRM_ACTION } as const;

/** Rounds of "its spam state changed between our read and our write" before retrying later. */
const ROUNDS = 3;

/**
 * How the submission reached the pipeline: stored as not spam (the event happened at its
 * `createdAt`), or released from spam by a moderator at `releasedAt` (the release marker's), which
 * is when the event happened for the outbound endpoints (lib/outbound/deliveries.ts).
 */
export type Arrival = { kind: "insert" } | { kind: "release"; releasedAt: string };

// biome-ignore lint/suspicious/noConfusingVoidType: a handler resolves with nothing (done) or a RetryLater
export async function processSubmission(submissionId: string, arrival: Arrival): Promise<void | RetryLater> {
  const fields = { submissionId, arrival: arrival.kind };
  for (let round = 1; round <= ROUNDS; round++) {
    const submission = await getSubmissionConsistent(submissionId);
    if (!submission) {
      log.info("submission gone before processing", fields);
      return;
    }
    if (submission.isSpam && !submission.lead) {
      // Flagged before the pipeline took it up. A release flagged again is withdrawn (its marker
      // deleted) so the next unflag releases it anew; unless it was unflagged in between.
      if (arrival.kind === "release" && !(await withdrawRelease(submissionId))) continue;
      log.info("submission is spam: nothing to do until it is released", fields);
      return;
    }
    if (submission.imported) {
      // The pipe's filter passes no imported submission; a release or a redelivery gets here: a
      // submission brought from another service is never notified, qualified or delivered.
      log.info("imported submission: nothing to send", fields);
      return;
    }
    if (submission.valuesDeletedAt) {
      log.info("submission's values were deleted (forward-only): nothing to send", fields);
      return;
    }
    if (valuesPastBound(submission, Date.now())) {
      // Its bound passed while an email was still being retried: no email, and the values go now.
      await strip(submissionId, "bound");
      log.info("forward-only submission past its bound: nothing to send", fields);
      return;
    }
    // The members' choices come beside the form: who gets the email is decided by both.
    const [form, members] = await Promise.all([
      getForm(submission.formId, { consistent: true }),
      listNotifiedMembers(submission.orgId),
    ]);
    if (!form || form.deletedAt) {
      log.info("submission's form is gone: nothing to do", { ...fields, formId: submission.formId });
      return;
    }
    const eventAt = arrival.kind === "release" ? arrival.releasedAt : submission.createdAt;
    const lead = await storeLeadOnce(
      submissionId,
      qualify(submission, form),
      isForwardOnly(form) ? forwardBound(eventAt) : undefined,
    );
    if (lead === "NOT_FOUND") return;
    if (lead === "SPAM") continue;
    return act({ ...submission, lead }, form, members, arrival);
  }
  return retryLater("the submission's spam state changed while it was being processed");
}

function qualify(submission: StoredSubmission, form: Form): Lead {
  const fieldTypes: Record<string, FieldType> = Object.create(null);
  for (const [key, field] of Object.entries(form.fields)) fieldTypes[key] = field.type;
  return qualifyLead({
    data: submission.data,
    fieldTypes,
    ...(submission.metadata?.ads ? { ads: submission.metadata.ads } : {}),
    ...(submission.metadata?.isTest ? { isTest: true } : {}),
  });
}

async function act(
  submission: StoredSubmission & { lead: Lead },
  form: Form,
  members: readonly NotifiedMember[],
  arrival: Arrival,
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler resolves with nothing (done) or a RetryLater
): Promise<void | RetryLater> {
  const eventAt = arrival.kind === "release" ? arrival.releasedAt : submission.createdAt;
  const forwardOnly = isForwardOnly(form);
  if (forwardOnly) await startForwarding(submission, eventAt);
  const failures: unknown[] = [];
  let busy = false;
  /** One emailing step under its claim: a failure releases it (the deliveries still go now, the email on retry). */
  const step = (action: string, effect: Effect) =>
    once(submission.id, action, effect).then(
      (outcome) => {
        busy ||= outcome === "busy";
      },
      (error: unknown) => {
        failures.push(error);
      },
    );
  await Promise.all([
    // Forms written before settings existed have none: only members who chose it are notified.
    anyRecipient(form, members) ? step(ACTIONS.notify, () => notify(submission, form, members)) : undefined,
    confirms(form) ? step(ACTIONS.confirm, () => confirmSubmission(submission, form, arrival.kind)) : undefined,
  ]);
  await startDeliveries(submission, form, eventAt);
  if (failures.length > 0) throw failures[0];
  if (busy) return retryLater("another consumer is sending this submission's emails");
  if (forwardOnly) await finishEmails(submission.id, form.id);
}

/**
 * The notification email to the form's addresses and the members who chose one per submission
 * (lib/notifications/member-choices.ts), those SES reported as bouncing or complaining left out.
 */
async function notify(
  submission: StoredSubmission & { lead: Lead },
  form: Form,
  members: readonly NotifiedMember[],
): Promise<void> {
  const { to, suppressed } = submissionRecipients(form, members);
  metrics.notifications("suppressed", suppressed);
  if (to.length === 0) return;
  const email = {
    ...notificationEmail(submission, form, submission.lead),
    ...carbonCopied(to, submission),
    kind: EMAIL_KINDS.notification,
  };
  const messageId = await sendRecorded(email, { formId: form.id, submissionId: submission.id }, to).catch((error: unknown) => {
    metrics.notifications("failed", to.length);
    throw error;
  });
  metrics.notifications("sent", to.length);
  log.info("notification email sent", { submissionId: submission.id, sesMessageId: messageId });
}

const submissionRecord = z.object({ id: z.string().check(z.minLength(1)) });
// Every release marker carries its time (lib/store/releases.ts, releaseItem).
const releaseRecord = z.object({ submissionId: z.string().check(z.minLength(1)), releasedAt: z.iso.datetime() });

/** RECORD_HANDLERS.submission: an inserted submission that is not spam. */
export const handleSubmissionRecord: RecordHandler = (item) =>
  processSubmission(submissionRecord.parse(item).id, { kind: "insert" });

/** RECORD_HANDLERS.release: the marker inserted when a moderator unflags a submission. */
export const handleReleaseRecord: RecordHandler = (item) => {
  const { submissionId, releasedAt } = releaseRecord.parse(item);
  return processSubmission(submissionId, { kind: "release", releasedAt });
};
