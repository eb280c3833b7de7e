import type { QueueMessageKind, RetryLater } from "../queue-message";
import type * as z from "../validation";
import type { StreamRecord } from "./stream-record";

/**
 * What the consumer's handlers are and answer: the batch runner (./batch.ts) calls them, and the
 * registry (lib/consumer-handlers.ts) lists them. A handler's "not yet" (RetryLater) is declared
 * in the leaf lib/queue-message.ts, so the modules that answer it (the outbound attempts, the
 * reclaim link) need not import the pipeline.
 */

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
type AnyMessageHandler = MessageHandler<any>;
/** Handlers by internal message kind; a kind without one fails its messages. */
export type MessageHandlers = Readonly<Partial<Record<QueueMessageKind, AnyMessageHandler>>>;

/** Everything the consumer can handle: stream records by item `type`, internal messages by kind. */
export interface ConsumerHandlers {
  records: RecordHandlers;
  messages: MessageHandlers;
}

/** The consumer's registry (lib/consumer-handlers.ts): one handler per message kind, or it does not compile. */
export interface ConsumerRegistry extends ConsumerHandlers {
  messages: Readonly<Record<QueueMessageKind, AnyMessageHandler>>;
}

export type RecordOutcome =
  | { status: "done" }
  | { status: "retry"; reason: string }
  | { status: "failed"; reason: string; error?: unknown };
