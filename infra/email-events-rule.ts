import type { FilterPattern } from "./stream-filter-match";

/**
 * The EventBridge rule that hands SES's events of the stack's configuration set to the email
 * events function (infra/notifications.ts), as plain data: the CDK app builds the rule from it,
 * the local stack's event bus (infra/local/event-bus.ts) matches what tests put with the same
 * pattern, and test/standalone/infra checks that the synthesized rule is this one.
 */

/** SES's event types Inlet records, as EventBridge names them (`detail-type`): every fate of docs/email.md. */
export const EMAIL_EVENT_DETAIL_TYPES = [
  "Email Sent",
  "Email Delivered",
  "Email Bounced",
  "Email Complaint Received",
  "Email Rejected",
  "Email Delivery Delayed",
] as const;

/**
 * The rule's pattern: SES's events of those types for emails sent through `configurationSet`
 * (SES adds the `ses:configuration-set` tag to every email sent through a set).
 * https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-eventbridge.html
 */
export const emailEventsPattern = (configurationSet: string) =>
  ({
    source: ["aws.ses"],
    "detail-type": [...EMAIL_EVENT_DETAIL_TYPES],
    detail: { mail: { tags: { "ses:configuration-set": [configurationSet] } } },
  }) satisfies FilterPattern;

/**
 * Lambda's own retries of a failed asynchronous invocation (EventBridge invokes the function so)
 * before the event goes to the dead-letter queue; the local bus retries as many times.
 */
export const EMAIL_EVENTS_FUNCTION_RETRIES = 2;
