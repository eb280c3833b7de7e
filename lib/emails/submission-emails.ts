import type { Principal } from "../auth/principal";
import { notFound } from "../errors";
import { CONFIRM_ACTION, CONFIRMATION_NOTES, type ConfirmationNote } from "../notifications/confirmation-notes";
import { getActionState } from "../store/actions";
import { getForm } from "../store/forms";
import { listSubmissionEmails as readSubmissionEmails, type SentEmail } from "../store/sent-emails";
import { getSubmission } from "../store/submissions";

/**
 * The emails sent for one submission and what became of each, for its page (docs/email.md,
 * "Every email's fate"): "did the notification arrive? why did the submitter get no
 * confirmation?". Two round trips: the submission (organization check), then its form (a form
 * being purged hides its submissions), its emails (one Query of their index) and its
 * confirmation's claim, in parallel.
 */

export const emailView = (email: SentEmail) => ({
  messageId: email.messageId,
  kind: email.kind,
  sentAt: email.sentAt,
  recipients: email.recipients.map((r) => ({ address: r.address, status: r.status, at: r.at, detail: r.detail })),
});

/** Why a submission's confirmation was not sent: a rule's note, or the submission is spam (never processed). */
type NotSentReason = Exclude<ConfirmationNote, "sent"> | "spam";
/** A confirmation's state when nothing refused it: the form sends none, it is on its way, or SES accepted it. */
export const CONFIRMATION_STATES = ["off", "pending", "sent"] as const;
type ConfirmationState =
  | { status: (typeof CONFIRMATION_STATES)[number]; reason: null }
  | { status: "not-sent"; reason: NotSentReason };

const isReason = (note: string): note is Exclude<ConfirmationNote, "sent"> =>
  note !== CONFIRMATION_NOTES.sent && (Object.values(CONFIRMATION_NOTES) as string[]).includes(note);

/**
 * Where the confirmation stands: its claim's note once done; under way while claimed, or while the
 * form sends them and the pipeline has not processed the submission yet; never for spam; else
 * off (the form sent none when the submission was processed).
 */
function confirmationState(
  claim: Awaited<ReturnType<typeof getActionState>>,
  submission: { isSpam: boolean; processed: boolean },
  enabled: boolean,
): ConfirmationState {
  if (claim?.status === "done") {
    return claim.note && isReason(claim.note) ? { status: "not-sent", reason: claim.note } : { status: "sent", reason: null };
  }
  if (claim) return { status: "pending", reason: null };
  if (submission.isSpam) return { status: "not-sent", reason: "spam" };
  return { status: enabled && !submission.processed ? "pending" : "off", reason: null };
}

export async function listSubmissionEmails(principal: Principal, submissionId: string) {
  const submission = await getSubmission(submissionId);
  if (!submission || submission.orgId !== principal.orgId) throw notFound("Submission");
  const [form, emails, claim] = await Promise.all([
    getForm(submission.formId),
    readSubmissionEmails(submission.id),
    getActionState(submission.id, CONFIRM_ACTION),
  ]);
  if (!form || form.deletedAt) throw notFound("Submission");
  return {
    emails: emails.map(emailView),
    confirmation: confirmationState(
      claim,
      { isSpam: submission.isSpam, processed: submission.lead !== undefined },
      form.settings?.confirmation?.enabled === true,
    ),
  };
}
