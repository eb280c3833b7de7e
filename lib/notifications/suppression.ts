import type { Form } from "../store/forms";

/**
 * Email reputation (docs/metrics.md, "Email reputation"). SES suspends an account whose bounce or
 * complaint rate stays high, and a form's notification addresses are typed by people and never
 * checked. So:
 * - every email goes through the stack's configuration set, whose suppression options put an
 *   address that bounces hard or complains on the account's suppression list;
 * - SES does not refuse a send to a suppressed address (SendEmail accepts it and the message
 *   then bounces with the subtype OnAccountSuppressionList, counted in the bounce rate's
 *   denominator only), so Inlet learns of it from the configuration set's EventBridge events:
 *   each notification carries its form's id as a message tag, and the email-events function
 *   records a hard bounce or a complaint on that form (`suppressedRecipients`, ./email-events.ts);
 * - the notification skips the addresses its form records, and counts them as `suppressed`.
 * https://docs.aws.amazon.com/ses/latest/dg/sending-email-suppression-list.html
 * https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-eventbridge.html
 *
 * This module is what the senders need; the events' side is apart (./email-events.ts), so the
 * queue consumer, whose bundle is at its bar, does not carry it.
 */

/** The message tags a notification carries (SES: names and values in [A-Za-z0-9_-]). */
export const EMAIL_TAGS = { form: "inlet-form", kind: "inlet-kind" } as const;

/** A form's notification addresses, without those recorded as suppressed. */
export function notificationRecipients(form: Pick<Form, "settings" | "suppressedRecipients">): {
  to: string[];
  suppressed: number;
} {
  const all = form.settings?.notifyEmails ?? [];
  const recorded = form.suppressedRecipients ?? {};
  const to = all.filter((address) => !Object.hasOwn(recorded, address.toLowerCase()));
  return { to, suppressed: all.length - to.length };
}
