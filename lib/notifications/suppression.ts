import { KIND_TAG } from "../aws/ses";
import { sha256Base62 } from "../ids";
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

/**
 * The message tags Inlet's emails carry (SES: names and values in [A-Za-z0-9_-]), which SES hands
 * back with each of the email's events: every email its kind, an email of a form its form, an
 * email of a submission its submission (./email-events.ts files the events by them).
 */
export const EMAIL_TAGS = { form: "inlet-form", kind: KIND_TAG, submission: "inlet-submission" } as const;

/** The kinds of the emails sent for a form's submissions (account emails are tagged with their own kind). */
export const EMAIL_KINDS = { notification: "notification", confirmation: "confirmation" } as const;

/**
 * The id of a suppressed address in the API (`sr_…`) and of a form's confirmation recipient in the
 * table: 22 base62 characters of the lower-cased address's SHA-256, so neither a URL nor a key
 * carries the address.
 */
export const recipientIdOf = (address: string) => sha256Base62(address.trim().toLowerCase());

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

/** A suppressed address's id in the API: its digest (recipientIdOf), so no URL carries the address. */
export const suppressedId = (address: string) => `sr_${recipientIdOf(address)}`;

/**
 * The form's suppressed notification addresses as the API answers them with the form
 * (`suppressedRecipients`), the most recently reported first.
 */
export function notificationSuppressions(form: Pick<Form, "suppressedRecipients">) {
  return Object.entries(form.suppressedRecipients ?? {})
    .map(([address, entry]) => ({
      id: suppressedId(address),
      kind: EMAIL_KINDS.notification,
      address,
      reason: entry.reason,
      detail: entry.detail ?? null,
      at: entry.at,
    }))
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}
