import { type EmailContent, sendEmail } from "../aws/ses";
import { log } from "../log";

/** The kind a digest is tagged with, beside notifications' and account emails' own. */
export const DIGEST_EMAIL_KIND = "digest";

/**
 * The one place a digest leaves Inlet: SendEmail through the same SES path and configuration set
 * as every notification (lib/aws/ses.ts), tagged with its kind, so SES's events about it reach
 * the same event handling. Answers SES's message id.
 */
export async function sendDigestEmail(
  email: EmailContent,
  about: { userId: string; cadence: string; periodEnd: string },
): Promise<string | undefined> {
  const messageId = await sendEmail({ ...email, kind: DIGEST_EMAIL_KIND });
  // Ids and the period only: the address is personal data and stays out of the logs.
  log.info("digest sent", { ...about, sesMessageId: messageId });
  return messageId;
}
