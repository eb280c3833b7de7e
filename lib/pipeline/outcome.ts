import type * as z from "../validation";
import type { StreamRecord } from "./stream-record";

/**
 * What the consumer's handlers answer: a leaf every part of the pipeline imports (the batch
 * runner, the record handlers, the outbound attempts), so none of them imports another for it.
 */

/** A handler's way of saying "not yet": an expected outcome, not an error. */
export interface RetryLater {
  retry: true;
  reason: string;
}

export const retryLater = (reason: string): RetryLater => ({ retry: true, reason });

/**
 * Handles one item that reached the intake queue. Resolving means done; returning
 * `retryLater(...)` leaves the message to come back after the queue's visibility timeout; a
 * throw is an unexpected failure (retried too, then dead-lettered after maxReceiveCount). A
 * redelivered message must redo nothing that already finished (conventions, item 12).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler resolves with nothing (done) or a RetryLater
export type RecordHandler = (item: Record<string, unknown>, record: StreamRecord) => Promise<void | RetryLater>;
export type RecordHandlers = Readonly<Record<string, RecordHandler>>;

/** An internal message kind: the schema its body must match, and what to do with it. */
export interface MessageHandler<T> {
  schema: z.ZodMiniType<T, unknown>;
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler resolves with nothing (done) or a RetryLater
  handle: (message: T) => Promise<void | RetryLater>;
}
// biome-ignore lint/suspicious/noExplicitAny: a registry holds handlers of different message types
export type MessageHandlers = Readonly<Record<string, MessageHandler<any>>>;

/** Everything the consumer can handle: stream records by item `type`, internal messages by kind. */
export interface ConsumerHandlers {
  records: RecordHandlers;
  messages: MessageHandlers;
}

export type RecordOutcome =
  | { status: "done" }
  | { status: "retry"; reason: string }
  | { status: "failed"; reason: string; error?: unknown };
