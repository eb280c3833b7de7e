/**
 * What a message on the intake queue is, for the code that sends one and the code that handles
 * one: a leaf (it imports nothing), so the producers (lib/outbound/, lib/reclaim-request.ts) and
 * the consumer (lib/pipeline/) share it without importing each other.
 *
 * The queue carries two families of messages, told apart by one attribute. Table stream records
 * arrive from the EventBridge Pipe (locally, from the stream follower) as their bare JSON: a
 * pipe's SQS target cannot set message attributes. Internal messages are sent by our own code,
 * which marks each with this attribute, whose value is the message's kind. So a message with the
 * attribute is internal, and one without is a stream record: the body is never searched to decide.
 */
export const MESSAGE_KIND_ATTRIBUTE = "inlet-message-kind";

/**
 * The kinds of internal message: an outbound delivery's attempt (lib/outbound/messages.ts) and a
 * reclaim request's link (lib/reclaim-request.ts). The consumer's registry has one handler per
 * kind (lib/consumer-handlers.ts), which `tsc` checks.
 */
export const QUEUE_MESSAGE_KINDS = ["delivery", "reclaim-email"] as const;
export type QueueMessageKind = (typeof QUEUE_MESSAGE_KINDS)[number];

/** The message attributes an internal message of `kind` is sent with. */
export const kindAttributes = (kind: QueueMessageKind): Record<string, string> => ({ [MESSAGE_KIND_ATTRIBUTE]: kind });

/** The two fields of an SQS message the consumer reads, and its attributes (a Lambda SQSRecord has them). */
export interface QueueMessage {
  messageId: string;
  body: string;
  messageAttributes?: Readonly<Record<string, { stringValue?: string | undefined } | undefined>>;
}

/** The kind of an internal message; undefined for a stream record. */
export const messageKind = (message: QueueMessage): string | undefined =>
  message.messageAttributes?.[MESSAGE_KIND_ATTRIBUTE]?.stringValue;

/**
 * A handler's way of saying "not yet": an expected outcome, not an error. The message comes back
 * after the queue's visibility timeout (lib/pipeline/outcome.ts has the whole contract).
 */
export interface RetryLater {
  retry: true;
  reason: string;
}

export const retryLater = (reason: string): RetryLater => ({ retry: true, reason });
