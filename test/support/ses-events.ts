import { randomUUID } from "node:crypto";

/**
 * SES's events, as SES documents them, put on the local stack's EventBridge stand-in
 * (infra/local/event-bus.ts) with EventBridge's own PutEvents call: the same path as in AWS, from
 * the bus's rule to the email events function. The SES emulator sends no events, so a test plays
 * SES: it names the email (its message id, from the emulator's store) and its tags, which SES
 * would hand back as the sender set them.
 * https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html
 * https://docs.aws.amazon.com/eventbridge/latest/ref/events-ref-ses.html
 */

export type SesEventType = "Send" | "Delivery" | "Bounce" | "Complaint" | "Reject" | "DeliveryDelay";

const DETAIL_TYPES: Record<SesEventType, string> = {
  Send: "Email Sent",
  Delivery: "Email Delivered",
  Bounce: "Email Bounced",
  Complaint: "Email Complaint Received",
  Reject: "Email Rejected",
  DeliveryDelay: "Email Delivery Delayed",
};

export interface EmailOf {
  messageId: string;
  destination: string[];
  /** Inlet's tags (`inlet-kind`, `inlet-form`, `inlet-submission`); the configuration set's is added. */
  tags: Record<string, string>;
  /** The configuration set the email went through: the stack's unless said otherwise. */
  configurationSet?: string;
}

export interface EventOptions {
  /** Recipients the event is about: the email's destination when not given. */
  recipients?: string[];
  timestamp?: string;
  bounceType?: "Permanent" | "Transient" | "Undetermined";
  bounceSubType?: string;
  diagnosticCode?: string;
  complaintFeedbackType?: string;
  rejectReason?: string;
  delayType?: string;
}

/** One SES event record (EventBridge's `detail`) of `type` about `email`. */
export function sesEventDetail(type: SesEventType, email: EmailOf, options: EventOptions = {}) {
  const timestamp = options.timestamp ?? new Date().toISOString();
  const recipients = options.recipients ?? email.destination;
  const configurationSet = email.configurationSet ?? process.env.SES_CONFIGURATION_SET ?? "inlet-local";
  const mail = {
    timestamp,
    source: "Inlet <notifications@inlet.localhost>",
    sendingAccountId: "000000000000",
    messageId: email.messageId,
    destination: email.destination,
    headersTruncated: false,
    tags: {
      ...Object.fromEntries(Object.entries(email.tags).map(([name, value]) => [name, [value]])),
      "ses:configuration-set": [configurationSet],
      "ses:source-ip": ["192.0.2.1"],
      "ses:from-domain": ["inlet.localhost"],
      "ses:caller-identity": ["inlet-consumer"],
    },
  };
  const body: Record<string, unknown> = { eventType: type, mail };
  switch (type) {
    case "Send":
      body.send = {};
      break;
    case "Delivery":
      body.delivery = {
        timestamp,
        processingTimeMillis: 546,
        recipients,
        smtpResponse: "250 2.6.0 Message received",
        reportingMTA: "a8-70.smtp-out.amazonses.com",
      };
      break;
    case "Bounce": {
      const bounceType = options.bounceType ?? "Permanent";
      body.bounce = {
        bounceType,
        bounceSubType: options.bounceSubType ?? (bounceType === "Permanent" ? "General" : "MailboxFull"),
        bouncedRecipients: recipients.map((emailAddress) => ({
          emailAddress,
          action: "failed",
          status: "5.1.1",
          diagnosticCode: options.diagnosticCode ?? `smtp; 550 5.1.1 <${emailAddress}>: user unknown`,
        })),
        timestamp,
        feedbackId: randomUUID(),
        reportingMTA: "dsn; a8-70.smtp-out.amazonses.com",
      };
      break;
    }
    case "Complaint":
      body.complaint = {
        complainedRecipients: recipients.map((emailAddress) => ({ emailAddress })),
        timestamp,
        feedbackId: randomUUID(),
        userAgent: "ExampleCorp Feedback Loop (V0.01)",
        complaintFeedbackType: options.complaintFeedbackType ?? "abuse",
        arrivalDate: timestamp,
      };
      break;
    case "Reject":
      body.reject = { reason: options.rejectReason ?? "Bad content" };
      break;
    case "DeliveryDelay":
      body.deliveryDelay = {
        timestamp,
        delayType: options.delayType ?? "TransientCommunicationFailure",
        expirationTime: new Date(Date.now() + 3600_000).toISOString(),
        delayedRecipients: recipients.map((emailAddress) => ({
          emailAddress,
          status: "4.4.1",
          diagnosticCode: "smtp; 421 4.4.1 Unable to connect",
        })),
      };
      break;
  }
  return { detailType: DETAIL_TYPES[type], detail: body };
}

export const eventBusUrl = () => {
  const url = process.env.INLET_EVENTS_URL;
  if (!url) throw new Error("INLET_EVENTS_URL is not set: the local stack was not started");
  return url;
};

/**
 * Puts SES events on the stack's bus (PutEvents, as SES's event destination does) and answers the
 * bus's reply once the email events function has handled them (infra/local/event-bus.ts).
 */
export async function putSesEvents(
  events: { detailType: string; detail: unknown; source?: string }[],
  url = eventBusUrl(),
): Promise<{ FailedEntryCount: number; Entries: { EventId?: string; ErrorCode?: string }[] }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AWSEvents.PutEvents" },
    body: JSON.stringify({
      Entries: events.map((e) => ({ Source: e.source ?? "aws.ses", DetailType: e.detailType, Detail: JSON.stringify(e.detail) })),
    }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`PutEvents: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Puts one event of `type` about `email` (on the bus at `url`: the test stack's by default). */
export const putSesEvent = (type: SesEventType, email: EmailOf, options?: EventOptions, url?: string) =>
  putSesEvents([sesEventDetail(type, email, options)], url);
