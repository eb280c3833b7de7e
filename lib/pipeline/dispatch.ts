import { describeError, log } from "../log";
import { handleDeliveryMessage } from "../outbound/attempts";
import { internalMessageSchema, looksInternal } from "../outbound/messages";
import { type PurgeJob, PurgeNotDue, runPurgePass } from "../purge";
import * as z from "../validation";
import { handleReleaseRecord, handleSubmissionRecord } from "./process-submission";
import { parseStreamRecord, type StreamRecord } from "./stream-record";

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
export type RecordHandler = (item: Record<string, unknown>, record: StreamRecord) => Promise<void | RetryLater>;
export type RecordHandlers = Readonly<Record<string, RecordHandler>>;

const purgeJobSchema = z.object({
  formId: z.string().check(z.minLength(1)),
  orgId: z.string(),
  siteId: z.string(),
  passes: z.number(),
  deleted: z.number(),
  createdAt: z.string(),
});

/**
 * What each item `type` that the intake filters pass (infra/intake-filter.ts) does, one entry per
 * type. A type without an entry is a failure of its message, never silently dropped: the DLQ
 * and its alarm surface it.
 */
export const RECORD_HANDLERS: RecordHandlers = {
  // A stored submission that is not spam, and a submission released from spam: the same
  // processing (lib/pipeline/process-submission.ts), whose claims make each side effect once.
  submission: handleSubmissionRecord,
  release: handleReleaseRecord,
  purge: async (item) => {
    const job: PurgeJob = purgeJobSchema.parse(item);
    try {
      await runPurgePass(job);
    } catch (error) {
      if (error instanceof PurgeNotDue) return retryLater(error.message);
      throw error;
    }
  },
};

export type RecordOutcome =
  | { status: "done" }
  | { status: "retry"; reason: string }
  | { status: "failed"; reason: string; error?: unknown };

/**
 * Parses one message body and runs the handler of its item's type, or, for an internal message
 * (not a stream record), its kind's handler. Never throws.
 */
/**
 * A body that is an internal message (lib/outbound/messages.ts: it has `kind`, which a stream
 * record never has), parsed; undefined for anything else.
 */
function internalMessageIn(body: string): Record<string, unknown> | undefined {
  if (!body.includes('"kind"')) return undefined;
  try {
    const json: unknown = JSON.parse(body);
    return looksInternal(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/** Runs an internal message (so far one kind: an outbound webhook delivery attempt). */
async function dispatchInternal(json: Record<string, unknown>): Promise<RecordOutcome> {
  const parsed = internalMessageSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
    return { status: "failed", reason: `the body is not a valid internal message (${issues.join("; ")})` };
  }
  try {
    const result = await handleDeliveryMessage(parsed.data);
    return result ? { status: "retry", reason: result.reason } : { status: "done" };
  } catch (error) {
    return { status: "failed", reason: `the ${parsed.data.kind} message handler failed`, error };
  }
}

export async function dispatchRecord(body: string, handlers: RecordHandlers = RECORD_HANDLERS): Promise<RecordOutcome> {
  const internal = internalMessageIn(body);
  if (internal) return dispatchInternal(internal);
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

/** The two fields of an SQS message the consumer reads (a Lambda SQSRecord has them). */
export interface QueueMessage {
  messageId: string;
  body: string;
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
export async function processMessages(
  messages: readonly QueueMessage[],
  handlers: RecordHandlers = RECORD_HANDLERS,
): Promise<BatchResponse> {
  const outcomes = await Promise.all(
    messages.map(async (message) => ({ message, outcome: await dispatchRecord(message.body, handlers) })),
  );
  const batchItemFailures: BatchResponse["batchItemFailures"] = [];
  for (const { message, outcome } of outcomes) {
    if (outcome.status === "done") continue;
    batchItemFailures.push({ itemIdentifier: message.messageId });
    const fields = { messageId: message.messageId, reason: outcome.reason };
    if (outcome.status === "retry") log.info("intake message retried later", fields);
    else log.error("intake message failed", { ...fields, ...(outcome.error ? describeError(outcome.error) : {}) });
  }
  return { batchItemFailures };
}
