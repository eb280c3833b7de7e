import { log } from "../log";
import { recordSuppressedRecipient } from "../store/suppressed-recipients";
import * as z from "../validation";
import { EMAIL_TAGS } from "./suppression";

/**
 * SES's bounce and complaint events for the stack's configuration set, recorded on the forms
 * their notifications were sent for (./suppression.ts says why and how).
 */

const recipients = z.array(z.object({ emailAddress: z.string().check(z.minLength(3), z.maxLength(320)) }));

/** SES's event as EventBridge delivers it (detail-type "Email Bounced" or "Email Complaint Received"). */
const sesEvent = z.object({
  source: z.literal("aws.ses"),
  detail: z.object({
    eventType: z.string(),
    mail: z.object({ tags: z.optional(z.record(z.string(), z.array(z.string()))) }),
    bounce: z.optional(z.object({ bounceType: z.string(), bouncedRecipients: recipients, timestamp: z.string() })),
    complaint: z.optional(z.object({ complainedRecipients: recipients, timestamp: z.string() })),
  }),
});

const FORM_ID = /^form_[0-9A-Za-z]{1,64}$/;

export interface SuppressionOutcome {
  recorded: number;
  /** Why nothing was recorded, when nothing was. */
  skipped?: string;
}

/**
 * Records what one SES event says: a permanent bounce or a complaint of a tagged notification,
 * on the form its tag names, for each of its recipients that the form still notifies. Transient
 * bounces (a full mailbox) are not recorded: SES retries them and does not suppress them.
 */
export async function recordEmailEvent(event: unknown): Promise<SuppressionOutcome> {
  const parsed = sesEvent.safeParse(event);
  if (!parsed.success) return { recorded: 0, skipped: "not an SES bounce or complaint event" };
  const { detail } = parsed.data;
  const formId = detail.mail.tags?.[EMAIL_TAGS.form]?.[0];
  if (!formId || !FORM_ID.test(formId)) return { recorded: 0, skipped: "the email is not a form's notification" };
  let reason: "bounce" | "complaint";
  let list: { emailAddress: string }[];
  let at: string;
  if (detail.eventType === "Bounce" && detail.bounce) {
    if (detail.bounce.bounceType !== "Permanent") return { recorded: 0, skipped: "a transient bounce" };
    [reason, list, at] = ["bounce", detail.bounce.bouncedRecipients, detail.bounce.timestamp];
  } else if (detail.eventType === "Complaint" && detail.complaint) {
    [reason, list, at] = ["complaint", detail.complaint.complainedRecipients, detail.complaint.timestamp];
  } else {
    return { recorded: 0, skipped: `an event of type ${detail.eventType}` };
  }
  const outcomes = await Promise.all(
    list.map(({ emailAddress }) => recordSuppressedRecipient(formId, emailAddress.trim().toLowerCase(), { reason, at })),
  );
  const recorded = outcomes.filter((outcome) => outcome === "OK").length;
  // The form and the count only: an address is personal data and stays out of the logs.
  log.info("suppressed recipients recorded", { formId, reason, recorded, reported: list.length });
  return { recorded };
}
