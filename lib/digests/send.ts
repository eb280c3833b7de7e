import type { EmailContent } from "../aws/ses";
import { log } from "../log";
import { sendRecorded } from "../notifications/send-recorded";

/** The kind a digest is tagged with, beside notifications' and account emails' own. */
export const DIGEST_EMAIL_KIND = "digest";

/**
 * The one place a digest leaves Inlet: through the same recorded path as a submission's emails
 * (lib/notifications/send-recorded.ts: SES's SendEmail through the stack's configuration set,
 * tagged with its kind, then the sent-email record), so it shows `sent` as soon as SES accepted
 * it and SES's events about it record its fate. A digest covers many forms and no submission: it
 * carries no form or submission tag, and its record is found by its message id. Answers SES's
 * message id.
 */
export async function sendDigestEmail(
  email: EmailContent,
  about: { userId: string; cadence: string; periodEnd: string },
): Promise<string | undefined> {
  const recipients = email.to.map((address) => address.trim().toLowerCase());
  const messageId = await sendRecorded({ ...email, kind: DIGEST_EMAIL_KIND }, {}, recipients);
  // Ids and the period only: the address is personal data and stays out of the logs.
  log.info("digest sent", { ...about, sesMessageId: messageId });
  return messageId;
}
