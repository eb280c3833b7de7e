import { isId, nowIso } from "../ids";
import { log } from "../log";
import { recordConfirmationSuppressed } from "../store/confirmation-recipients";
import { type EmailFate, recordEmailSent, recordRecipientFate, type SentEmailRef, SUBMITTER } from "../store/sent-emails";
import type { SuppressionReason } from "../store/shapes";
import { recordSuppressedRecipient } from "../store/suppressed-recipients";
import * as z from "../validation";
import { EMAIL_KINDS, EMAIL_TAGS, recipientIdOf } from "./suppression";

/**
 * SES's events for the stack's configuration set (docs/email.md, "Every email's fate"): each
 * recipient's fate recorded on the email it concerns, found by its SES message id
 * (lib/store/sent-emails.ts), and a hard bounce or a complaint recorded on the form the email was
 * sent for, whose later emails then skip the address (./suppression.ts says why and how).
 */

const address = z.string().check(z.minLength(3), z.maxLength(320));
const recipients = z.array(z.object({ emailAddress: address, diagnosticCode: z.optional(z.string()) }));
const tags = z.record(z.string(), z.array(z.string()));

/**
 * SES's event record as EventBridge delivers it in `detail` (detail-type "Email Sent", "Email
 * Delivered", "Email Bounced", "Email Complaint Received", "Email Rejected", "Email Delivery
 * Delayed"): https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html
 */
const sesEvent = z.object({
  source: z.literal("aws.ses"),
  time: z.optional(z.string()),
  detail: z.object({
    eventType: z.string(),
    mail: z.object({
      messageId: z.string().check(z.regex(/^[A-Za-z0-9._@+-]{1,200}$/)),
      timestamp: z.optional(z.iso.datetime()),
      destination: z.optional(z.array(address)),
      tags: z.optional(tags),
    }),
    delivery: z.optional(z.object({ recipients: z.array(address), timestamp: z.string(), smtpResponse: z.optional(z.string()) })),
    bounce: z.optional(
      z.object({
        bounceType: z.string(),
        bounceSubType: z.optional(z.string()),
        bouncedRecipients: recipients,
        timestamp: z.string(),
      }),
    ),
    complaint: z.optional(
      z.object({ complainedRecipients: recipients, timestamp: z.string(), complaintFeedbackType: z.optional(z.string()) }),
    ),
    reject: z.optional(z.object({ reason: z.optional(z.string()) })),
    deliveryDelay: z.optional(
      z.object({ delayType: z.optional(z.string()), delayedRecipients: recipients, timestamp: z.string() }),
    ),
  }),
});
type Detail = z.output<typeof sesEvent>["detail"];

const FORM_ID = /^form_[0-9A-Za-z]{1,64}$/;
const KIND = /^[a-z][a-z0-9-]{0,39}$/;

export interface EmailEventOutcome {
  /** Recipients whose fate was written (a replayed or late event writes none). */
  recorded: number;
  /** Addresses recorded as suppressed on their form. */
  suppressed: number;
  /** Why nothing was recorded, when nothing was. */
  skipped?: string;
}

/** An address SES's words may quote (a diagnostic code), left out: details outlive submissions. */
const ADDRESS_IN_TEXT = /[^\s<>()[\]@,;:"]+@[^\s<>()[\]@,;:"]+/g;
const words = (...parts: (string | undefined)[]) => {
  const text = parts.filter(Boolean).join(": ").replace(ADDRESS_IN_TEXT, "<address>").trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text || undefined;
};

interface Fates {
  status: Exclude<EmailFate, "sent">;
  at: string;
  /** Each recipient and SES's words about it. */
  list: { address: string; detail: string | undefined }[];
  /** A hard bounce or a complaint: the addresses are suppressed from now on. */
  suppress?: SuppressionReason;
}

/** What one event says about its recipients; undefined for a Send event (and types Inlet does not record). */
function fatesOf(detail: Detail, eventTime: string): Fates | "send" | undefined {
  const { bounce, complaint, delivery, deliveryDelay, reject } = detail;
  switch (detail.eventType) {
    case "Send":
      return "send";
    case "Delivery":
      return (
        delivery && {
          status: "delivered",
          at: delivery.timestamp,
          list: delivery.recipients.map((a) => ({ address: a, detail: words(delivery.smtpResponse) })),
        }
      );
    case "Bounce":
      // A transient bounce is SES giving up after its retries (a full mailbox): final for this
      // email, but SES does not suppress the address, and neither does Inlet.
      return (
        bounce && {
          status: "bounced",
          at: bounce.timestamp,
          list: bounce.bouncedRecipients.map((r) => ({
            address: r.emailAddress,
            detail: words(`${bounce.bounceType}/${bounce.bounceSubType ?? "Undetermined"}`, r.diagnosticCode),
          })),
          ...(bounce.bounceType === "Permanent" ? { suppress: "bounce" as const } : {}),
        }
      );
    case "Complaint":
      return (
        complaint && {
          status: "complained",
          at: complaint.timestamp,
          list: complaint.complainedRecipients.map((r) => ({
            address: r.emailAddress,
            detail: words(complaint.complaintFeedbackType),
          })),
          suppress: "complaint",
        }
      );
    case "Reject":
      return {
        status: "rejected",
        at: eventTime,
        list: (detail.mail.destination ?? []).map((a) => ({ address: a, detail: words(reject?.reason) })),
      };
    case "DeliveryDelay":
      return (
        deliveryDelay && {
          status: "delayed",
          at: deliveryDelay.timestamp,
          list: deliveryDelay.delayedRecipients.map((r) => ({
            address: r.emailAddress,
            detail: words(deliveryDelay.delayType, r.diagnosticCode),
          })),
        }
      );
    default:
      return undefined;
  }
}

/** The Inlet tags of an email (./suppression.ts, EMAIL_TAGS), each checked: they come back from outside. */
function refOf(detail: Detail, eventTime: string): SentEmailRef | undefined {
  const tag = (name: string) => detail.mail.tags?.[name]?.[0];
  const kind = tag(EMAIL_TAGS.kind);
  if (!kind || !KIND.test(kind)) return undefined;
  const formId = tag(EMAIL_TAGS.form);
  const submissionId = tag(EMAIL_TAGS.submission);
  return {
    messageId: detail.mail.messageId,
    kind,
    ...(formId && FORM_ID.test(formId) ? { formId } : {}),
    ...(submissionId && isId("submission", submissionId) ? { submissionId } : {}),
    sentAt: detail.mail.timestamp ?? eventTime,
  };
}

/**
 * Records what one SES event says: the fate of each recipient it names on the email (by message
 * id), and for a hard bounce or a complaint of a form's email, the address on that form
 * (a notification: the form's suppressed notification addresses, if it still notifies it; a
 * confirmation: its confirmation recipient). An email without Inlet's kind tag is not Inlet's.
 */
export async function recordEmailEvent(event: unknown): Promise<EmailEventOutcome> {
  const parsed = sesEvent.safeParse(event);
  if (!parsed.success) return { recorded: 0, suppressed: 0, skipped: "not an SES event" };
  const { detail } = parsed.data;
  const now = nowIso();
  const eventTime = parsed.data.time ?? now;
  const ref = refOf(detail, eventTime);
  if (!ref) return { recorded: 0, suppressed: 0, skipped: "an email without Inlet's tags" };
  // A confirmation's only recipient is its submitter, whose address stays with the submission.
  const nameOf = (address: string) => (ref.kind === EMAIL_KINDS.confirmation ? SUBMITTER : address.trim().toLowerCase());
  const fates = fatesOf(detail, eventTime);
  if (fates === undefined) return { recorded: 0, suppressed: 0, skipped: `an event of type ${detail.eventType}` };
  if (fates === "send") {
    const names = [...new Set((detail.mail.destination ?? []).map(nameOf))];
    await recordEmailSent(ref, names, now);
    log.info("email event recorded", {
      messageId: ref.messageId,
      kind: ref.kind,
      eventType: detail.eventType,
      recorded: names.length,
    });
    return { recorded: names.length, suppressed: 0 };
  }
  const [written, suppressed] = await Promise.all([
    Promise.all(
      fates.list.map(({ address, detail: said }) =>
        recordRecipientFate(ref, nameOf(address), { status: fates.status, at: fates.at, detail: said }, now),
      ),
    ),
    fates.suppress ? suppress(ref, fates.suppress, fates) : Promise.resolve(0),
  ]);
  const recorded = written.filter((outcome) => outcome === "OK").length;
  // Ids and counts only: an address is personal data and stays out of the logs.
  log.info("email event recorded", {
    messageId: ref.messageId,
    kind: ref.kind,
    eventType: detail.eventType,
    recorded,
    suppressed,
    reported: fates.list.length,
  });
  return { recorded, suppressed };
}

/** Records a hard bounce's or a complaint's addresses on the form the email was sent for; answers how many. */
async function suppress(ref: SentEmailRef, reason: SuppressionReason, fates: Fates): Promise<number> {
  const { formId } = ref;
  if (!formId) return 0;
  const outcomes = await Promise.all(
    fates.list.map(({ address, detail }) => {
      const lower = address.trim().toLowerCase();
      const entry = { reason, at: fates.at, ...(detail ? { detail } : {}) };
      if (ref.kind === EMAIL_KINDS.notification) return recordSuppressedRecipient(formId, lower, entry);
      if (ref.kind === EMAIL_KINDS.confirmation) {
        return recordConfirmationSuppressed(formId, recipientIdOf(lower), lower, { ...entry, detail: detail ?? null });
      }
      return Promise.resolve("NOT_FOUND" as const);
    }),
  );
  return outcomes.filter((outcome) => outcome === "OK").length;
}
