import { log } from "../log";
import * as metrics from "../metrics/record";
import { cameFrom, confirmationEmail, confirmationOf, placeholderValues, submitterAddress } from "../notifications/confirmation";
import { CONFIRMATION_NOTES, type ConfirmationNote } from "../notifications/confirmation-notes";
import { sendRecorded } from "../notifications/send-recorded";
import { EMAIL_KINDS, recipientIdOf } from "../notifications/suppression";
import { claimConfirmation } from "../store/confirmation-recipients";
import type { Form } from "../store/forms";
import { SUBMITTER } from "../store/sent-emails";
import { getSite } from "../store/sites";
import type { StoredSubmission } from "../store/submissions";

/**
 * The confirmation email to the person who filled the form (docs/email.md, "Confirmation emails"),
 * one step of a submission's processing, run under its claim (`ACTION#<submissionId>#confirm`,
 * ./once.ts). Inlet must not become a way to mail strangers, so it goes out only when every
 * rule holds, checked cheapest first; the first that fails is the step's note
 * (CONFIRMATION_NOTES), kept on the claim and shown with the submission's emails.
 */

/** Whether the form sends confirmations at all (no claim is taken when it does not). */
export const confirms = (form: Pick<Form, "settings">) => form.settings?.confirmation?.enabled === true;

/**
 * Sends the confirmation of a submission that went straight to the inbox (a release from spam
 * sends none: `arrival`), or answers why not. A failed send throws (the claim is released and
 * the message retried: the day's marker holds the submission's id, so the retry may take it).
 */
export async function confirmSubmission(
  submission: StoredSubmission,
  form: Form,
  arrival: "insert" | "release",
  now = Date.now(),
): Promise<ConfirmationNote> {
  const note = await decideAndSend(submission, form, arrival, now);
  if (note !== CONFIRMATION_NOTES.sent) {
    metrics.confirmation(
      note === CONFIRMATION_NOTES.suppressed ? "suppressed" : note === CONFIRMATION_NOTES.repeated ? "repeated" : "refused",
    );
    log.info("confirmation email not sent", { submissionId: submission.id, reason: note });
  }
  return note;
}

async function decideAndSend(submission: StoredSubmission, form: Form, arrival: "insert" | "release", now: number) {
  if (arrival === "release" || submission.spam.isSpam) return CONFIRMATION_NOTES.released;
  const to = submitterAddress(submission, form);
  if (!to) return CONFIRMATION_NOTES.noAddress;
  const site = await getSite(submission.orgId, submission.siteId);
  if (!site?.domain) return CONFIRMATION_NOTES.noDomain;
  // Intake verifies the captcha of every submission from a browser source (`generic`) while the
  // site has one, and refuses those that fail: such a submission in the pipeline passed it.
  const passedCaptcha = Boolean(site.captcha) && submission.metadata.source === "generic";
  if (!passedCaptcha && !cameFrom(submission.metadata.referer, site.domain)) return CONFIRMATION_NOTES.notFromDomain;
  const claim = await claimConfirmation(form.id, recipientIdOf(to), submission.id, now);
  if (claim.status === "suppressed") return CONFIRMATION_NOTES.suppressed;
  if (claim.status === "recent") return CONFIRMATION_NOTES.repeated;
  const email = {
    ...confirmationEmail(confirmationOf(form), placeholderValues(submission, form), to, site.domain),
    kind: EMAIL_KINDS.confirmation,
  };
  const messageId = await sendRecorded(email, { formId: form.id, submissionId: submission.id }, [SUBMITTER]).catch(
    (error: unknown) => {
      metrics.confirmation("failed");
      throw error;
    },
  );
  metrics.confirmation("sent");
  log.info("confirmation email sent", { submissionId: submission.id, sesMessageId: messageId });
  return CONFIRMATION_NOTES.sent;
}
