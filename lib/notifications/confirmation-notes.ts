/**
 * What became of a submission's confirmation email, in words shared by the consumer that decides
 * it (lib/pipeline/confirm.ts) and the API that shows it (lib/emails/submission-emails.ts), apart
 * from both so neither bundle carries the other.
 */

/** The claim of a submission's confirmation (`ACTION#<submissionId>#confirm`, lib/store/actions.ts). */
export const CONFIRM_ACTION = "confirm";

/**
 * The note the confirmation's claim keeps: `sent`, or the first rule that said no (docs/email.md,
 * "Confirmation emails"), checked in this order.
 */
export const CONFIRMATION_NOTES = {
  sent: "sent",
  /** Intake stored it as spam; a moderator released it: no confirmation, however late. */
  released: "released-from-spam",
  /** No plain address in `_replyto` or an email field. */
  noAddress: "no-address",
  /** The form's site has no domain (or is gone). */
  noDomain: "no-domain",
  /** Its Referer is not a page of the site's domain, and the site asks no captcha of browsers. */
  notFromDomain: "not-from-domain",
  /** SES reported the address bouncing or complaining on this form's confirmation. */
  suppressed: "suppressed",
  /** The form confirmed to the address less than a day ago. */
  repeated: "repeated",
} as const;
export type ConfirmationNote = (typeof CONFIRMATION_NOTES)[keyof typeof CONFIRMATION_NOTES];
