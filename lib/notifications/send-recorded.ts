import { type EmailMessage, sendEmail } from "../aws/ses";
import { describeError, log } from "../log";
import { recordEmailSent } from "../store/sent-emails";
import { EMAIL_TAGS } from "./suppression";

/**
 * What an email is sent for, tagged so SES's events find it: a submission's emails name their
 * form and submission; a digest names neither (it covers many forms), and is recorded by its
 * message id alone.
 */
export interface EmailAbout {
  formId?: string;
  submissionId?: string;
}

/**
 * Sends one email through SES, tagged with its form and submission when it has them, and records
 * it (lib/store/sent-emails.ts) as sent to `recipients` (the names its fates are kept under: the
 * lower-cased addresses, or SUBMITTER). A failed record is logged, never thrown: SES accepted the
 * email, and a failure here would have the message retried and the email sent twice; its events
 * record it (SES's `Send` event carries everything the record needs). Answers SES's message id.
 */
export async function sendRecorded(
  email: EmailMessage,
  about: EmailAbout,
  recipients: readonly string[],
): Promise<string | undefined> {
  const sentAt = new Date().toISOString();
  const messageId = await sendEmail({
    ...email,
    tags: {
      ...email.tags,
      ...(about.formId ? { [EMAIL_TAGS.form]: about.formId } : {}),
      ...(about.submissionId ? { [EMAIL_TAGS.submission]: about.submissionId } : {}),
    },
  });
  if (messageId) {
    await recordEmailSent({ messageId, kind: email.kind, ...about, sentAt }, recipients, new Date().toISOString()).catch(
      (error: unknown) =>
        log.warn("sent email not recorded", {
          kind: email.kind,
          ...(about.submissionId ? { submissionId: about.submissionId } : {}),
          sesMessageId: messageId,
          ...describeError(error),
        }),
    );
  }
  return messageId;
}
