/**
 * How the intake queue's two message families are told apart. Table stream records arrive from
 * the EventBridge Pipe (locally, from the stream follower) as their bare JSON: a pipe's SQS
 * target cannot set message attributes. Internal messages (lib/outbound/messages.ts) are sent by
 * our own code, which marks each with this attribute, whose value is the message's kind. So a
 * message with the attribute is internal, and one without is a stream record: the body is never
 * searched to decide.
 */
export const MESSAGE_KIND_ATTRIBUTE = "inlet-message-kind";

/** The two fields of an SQS message the consumer reads, and its attributes (a Lambda SQSRecord has them). */
export interface QueueMessage {
  messageId: string;
  body: string;
  messageAttributes?: Readonly<Record<string, { stringValue?: string | undefined } | undefined>>;
}

/** The kind of an internal message; undefined for a stream record. */
export const messageKind = (message: QueueMessage): string | undefined =>
  message.messageAttributes?.[MESSAGE_KIND_ATTRIBUTE]?.stringValue;
