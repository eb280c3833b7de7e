import { describeError, log } from "../log";
import { messageKind, type QueueMessage, type QueueMessageKind } from "../queue-message";
import type { ConsumerHandlers, RecordHandler, RecordOutcome } from "./outcome";
import { parseStreamRecord } from "./stream-record";

/**
 * The intake queue's generic batch runner. It knows the two message families
 * (lib/queue-message.ts) and the outcome contract (./outcome.ts), not what any item type or
 * message kind does: the consumer function hands it the registry (lib/consumer-handlers.ts).
 */

/** Runs an internal message of `kind` through its handler. */
async function dispatchInternal(kind: string, body: string, handlers: ConsumerHandlers["messages"]): Promise<RecordOutcome> {
  const invalid = (why: string): RecordOutcome => ({
    status: "failed",
    reason: `the body is not a valid internal message (${why})`,
  });
  // Object.hasOwn: a kind such as "constructor" must not reach Object.prototype.
  if (!Object.hasOwn(handlers, kind)) return invalid(`no handler for kind ${JSON.stringify(kind)}`);
  const handler = handlers[kind as QueueMessageKind] as NonNullable<ConsumerHandlers["messages"][QueueMessageKind]>;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return invalid("not JSON");
  }
  const parsed = handler.schema.safeParse(json);
  if (!parsed.success) {
    return invalid(
      parsed.error.issues.map((issue) => `${issue.path.map(String).join(".") || "body"}: ${issue.message}`).join("; "),
    );
  }
  try {
    const result = await handler.handle(parsed.data);
    return result ? { status: "retry", reason: result.reason } : { status: "done" };
  } catch (error) {
    return { status: "failed", reason: `the ${kind} message handler failed`, error };
  }
}

/** Parses one stream record and runs the handler of its item's type. */
async function dispatchStreamRecord(body: string, handlers: ConsumerHandlers["records"]): Promise<RecordOutcome> {
  const parsed = parseStreamRecord(body);
  if (!parsed.ok) return { status: "failed", reason: parsed.reason };
  const { record, item } = parsed;
  if (!item) return { status: "failed", reason: `a ${record.eventName} record without NewImage` };
  const type = item.type;
  // Object.hasOwn: an item type such as "constructor" must not reach Object.prototype.
  if (typeof type !== "string" || !Object.hasOwn(handlers, type)) {
    return { status: "failed", reason: `no handler for item type ${JSON.stringify(type)}` };
  }
  try {
    const result = await (handlers[type] as RecordHandler)(item, record);
    return result ? { status: "retry", reason: result.reason } : { status: "done" };
  } catch (error) {
    return { status: "failed", reason: `the ${type} handler failed`, error };
  }
}

/** Runs one message through the handler its family and type or kind select. Never throws. */
export function dispatchMessage(message: QueueMessage, handlers: ConsumerHandlers): Promise<RecordOutcome> {
  const kind = messageKind(message);
  return kind === undefined
    ? dispatchStreamRecord(message.body, handlers.records)
    : dispatchInternal(kind, message.body, handlers.messages);
}

export interface BatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

/**
 * Processes a batch per message and reports the ones to retry as batch item failures, so one
 * bad message never sends the whole batch back (the event source mapping must have
 * ReportBatchItemFailures on). Messages run concurrently: they are independent, and their
 * work is mostly waiting on I/O.
 * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html
 */
export async function processMessages(messages: readonly QueueMessage[], handlers: ConsumerHandlers): Promise<BatchResponse> {
  const outcomes = await Promise.all(
    messages.map(async (message) => ({ message, outcome: await dispatchMessage(message, handlers) })),
  );
  const batchItemFailures: BatchResponse["batchItemFailures"] = [];
  for (const { message, outcome } of outcomes) {
    if (outcome.status === "done") continue;
    batchItemFailures.push({ itemIdentifier: message.messageId });
    const fields = { messageId: message.messageId, reason: outcome.reason };
    if (outcome.status === "retry") log.info("queue message retried later", fields);
    else log.error("queue message failed", { ...fields, ...(outcome.error ? describeError(outcome.error) : {}) });
  }
  return { batchItemFailures };
}
