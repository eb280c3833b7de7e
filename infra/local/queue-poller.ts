import { randomUUID } from "node:crypto";
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import type { Context, SQSEvent, SQSMessageAttributes, SQSRecord, SQSRecordAttributes } from "aws-lambda";
import { describeError, log } from "../../lib/log";

/**
 * Lambda's SQS event source mapping, on this machine: long-polls the queue and invokes the
 * consumer with the batch contract AWS applies when ReportBatchItemFailures is on
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html):
 * 1. ReceiveMessage, up to `batchSize` messages, all system and message attributes. With a
 *    batching window (the event source's MaximumBatchingWindowInSeconds: "the maximum amount of
 *    time Lambda spends gathering records before invoking the function",
 *    https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html), it keeps
 *    receiving after the first message came, until the batch is full or the window is over.
 *    Each of those receives long-polls for the rest of the window in whole seconds (SQS's
 *    WaitTimeSeconds), so locally a batch may wait up to a second past its window.
 * 2. An SQS event: Records[] with messageId, receiptHandle, body, attributes, messageAttributes,
 *    md5OfBody, eventSource "aws:sqs", eventSourceARN, awsRegion.
 * 3. The handler runs with a context whose getRemainingTimeInMillis counts down its timeout.
 * 4. A response of { batchItemFailures: [{ itemIdentifier }] } deletes every other message; no
 *    response, an empty object, or a null or empty list deletes them all. A malformed response
 *    (not an object, a list that is not one, an empty, missing or unknown itemIdentifier), a
 *    throw or a timeout deletes none: the whole batch returns after the visibility timeout.
 * 5. Messages received `maxReceiveCount` times move to the DLQ by the queue's own redrive policy.
 * One batch at a time (Lambda would run several concurrently; order is not promised either way).
 * One poller: Lambda runs at least five for a queue, so at a low rate its batches are smaller
 * than this poller's (the messages are spread over the pollers); at the rates where batching
 * pays, they fill alike (docs/performance.md, section 14).
 * A timed-out handler is not killed as Lambda would: its work goes on, but the batch counts as
 * failed.
 */

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<unknown>;

export interface QueuePollerOptions {
  sqs: SQSClient;
  queueUrl: string;
  handler: SqsHandler;
  /** 1..10, like the event source's BatchSize for a standard queue. */
  batchSize?: number;
  /** The event source's MaximumBatchingWindowInSeconds, in milliseconds; 0 (the default): one receive per batch. */
  batchingWindowMs?: number;
  /** The function's timeout (getRemainingTimeInMillis counts it down). */
  timeoutSeconds?: number;
  memoryMb?: number;
  functionName?: string;
  /** Long-poll wait (Lambda uses 20 s); stop() interrupts it. */
  waitTimeSeconds?: number;
  /**
   * Messages this poller finished with: deleted after success, or failed on their last receive
   * before the redrive policy moves them to the DLQ. The stream follower advances its position.
   */
  onSettled?: (messageIds: string[]) => void;
}

/** What the poller did since it started: the figures the bench's cost model reads (test/bench/batching.ts). */
export interface QueuePollerStats {
  /** ReceiveMessage requests, those that came back empty included. */
  receives: number;
  emptyReceives: number;
  /** DeleteMessageBatch requests. */
  deletes: number;
  /** Consumer invocations (one per batch) and the messages they were handed. */
  invocations: number;
  messages: number;
  /** Invocations by batch size: `bySize[n]` batches held n messages. */
  bySize: number[];
  /** The handler's time over all invocations, each rounded up to the millisecond as Lambda bills. */
  billedMs: number;
}

export interface QueuePoller {
  stats(): QueuePollerStats;
  /** Stops polling; a batch being handled finishes first. */
  stop(): Promise<void>;
}

/** Which messages to keep for a retry, or "all" when the response breaks the contract. */
export function messagesToRetry(response: unknown, batch: ReadonlySet<string>): ReadonlySet<string> | "all" {
  if (response === undefined || response === null) return new Set();
  if (typeof response !== "object" || Array.isArray(response)) return "all";
  const failures = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return "all";
  const retry = new Set<string>();
  for (const failure of failures) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== "string" || id === "" || !batch.has(id)) return "all";
    retry.add(id);
  }
  return retry;
}

function toRecord(message: Message, queueArn: string, region: string): SQSRecord {
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) {
    messageAttributes[name] = {
      ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
      ...(value.BinaryValue !== undefined ? { binaryValue: Buffer.from(value.BinaryValue).toString("base64") } : {}),
      stringListValues: [],
      binaryListValues: [],
      dataType: value.DataType ?? "String",
    };
  }
  return {
    messageId: message.MessageId ?? "",
    receiptHandle: message.ReceiptHandle ?? "",
    body: message.Body ?? "",
    attributes: (message.Attributes ?? {}) as unknown as SQSRecordAttributes,
    messageAttributes,
    md5OfBody: message.MD5OfBody ?? "",
    ...(message.MD5OfMessageAttributes ? { md5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
    eventSource: "aws:sqs",
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

export async function startQueuePoller(options: QueuePollerOptions): Promise<QueuePoller> {
  const batchSize = options.batchSize ?? 10;
  const windowMs = options.batchingWindowMs ?? 0;
  const timeoutMs = (options.timeoutSeconds ?? 30) * 1000;
  const functionName = options.functionName ?? "inlet-local-consumer";
  const region = await options.sqs.config.region();
  const attributes = (
    await options.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: options.queueUrl, AttributeNames: ["QueueArn", "RedrivePolicy"] }),
    )
  ).Attributes;
  const queueArn = attributes?.QueueArn ?? "";
  const redrive = attributes?.RedrivePolicy ? (JSON.parse(attributes.RedrivePolicy) as { maxReceiveCount?: number }) : {};
  const maxReceiveCount = redrive.maxReceiveCount ? Number(redrive.maxReceiveCount) : Number.POSITIVE_INFINITY;
  const abort = new AbortController();
  const stats: QueuePollerStats = {
    receives: 0,
    emptyReceives: 0,
    deletes: 0,
    invocations: 0,
    messages: 0,
    bySize: new Array<number>(batchSize + 1).fill(0),
    billedMs: 0,
  };

  async function invoke(messages: Message[]): Promise<void> {
    const event: SQSEvent = { Records: messages.map((message) => toRecord(message, queueArn, region)) };
    const deadline = Date.now() + timeoutMs;
    const context: Context = {
      callbackWaitsForEmptyEventLoop: true,
      functionName,
      functionVersion: "$LATEST",
      invokedFunctionArn: `arn:aws:lambda:${region}:000000000000:function:${functionName}`,
      memoryLimitInMB: String(options.memoryMb ?? 256),
      awsRequestId: randomUUID(),
      logGroupName: `/aws/lambda/${functionName}`,
      logStreamName: "local",
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    };
    let retry: ReadonlySet<string> | "all";
    let timer: NodeJS.Timeout | undefined;
    const started = performance.now();
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Task timed out after ${timeoutMs / 1000} seconds`)), timeoutMs);
      });
      const response = await Promise.race([options.handler(event, context), timeout]);
      retry = messagesToRetry(response, new Set(event.Records.map((r) => r.messageId)));
      if (retry === "all") log.error("queue poller: malformed batch response, no message deleted", { response });
    } catch (error) {
      log.error("queue poller: the consumer failed, no message deleted", describeError(error));
      retry = "all";
    } finally {
      clearTimeout(timer);
      stats.invocations++;
      stats.messages += messages.length;
      stats.bySize[messages.length] = (stats.bySize[messages.length] ?? 0) + 1;
      stats.billedMs += Math.ceil(performance.now() - started);
    }

    const done = retry === "all" ? [] : messages.filter((m) => !retry.has(m.MessageId ?? ""));
    const deleted = await deleteMessages(done);
    // Failed on its last allowed receive: the redrive policy moves it to the DLQ at the next receive.
    const deadLettered = messages
      .filter((m) => !deleted.has(m.MessageId ?? ""))
      .filter((m) => Number(m.Attributes?.ApproximateReceiveCount ?? 0) >= maxReceiveCount)
      .map((m) => m.MessageId ?? "");
    options.onSettled?.([...deleted, ...deadLettered]);
  }

  async function deleteMessages(messages: Message[]): Promise<Set<string>> {
    const deleted = new Set<string>();
    for (let start = 0; start < messages.length; start += 10) {
      const chunk = messages.slice(start, start + 10);
      try {
        stats.deletes++;
        const out = await options.sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: options.queueUrl,
            Entries: chunk.map((m, index) => ({ Id: String(index), ReceiptHandle: m.ReceiptHandle })),
          }),
        );
        for (const ok of out.Successful ?? []) deleted.add(chunk[Number(ok.Id)]?.MessageId ?? "");
        for (const failed of out.Failed ?? []) {
          log.warn("queue poller: a message could not be deleted and will be received again", {
            messageId: chunk[Number(failed.Id)]?.MessageId,
            code: failed.Code,
          });
        }
      } catch (error) {
        log.warn("queue poller: deleting messages failed; they will be received again", describeError(error));
      }
    }
    return deleted;
  }

  async function receive(max: number, waitSeconds: number): Promise<Message[]> {
    stats.receives++;
    const out = await options.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: options.queueUrl,
        MaxNumberOfMessages: max,
        WaitTimeSeconds: waitSeconds,
        MessageSystemAttributeNames: ["All"],
        MessageAttributeNames: ["All"],
      }),
      { abortSignal: abort.signal },
    );
    const messages = out.Messages ?? [];
    if (messages.length === 0) stats.emptyReceives++;
    return messages;
  }

  /**
   * After a batch's first messages: more, until it is full or the window is over. A message
   * received again meanwhile (a queue whose visibility timeout is shorter than the window; the
   * deployed one's is minutes) replaces its first copy: only the latest receipt handle deletes it.
   */
  async function fill(first: Message[]): Promise<Message[]> {
    const batch = new Map(first.map((m) => [m.MessageId, m]));
    const deadline = Date.now() + windowMs;
    while (batch.size < batchSize && !abort.signal.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      try {
        for (const m of await receive(batchSize - batch.size, Math.min(20, Math.ceil(left / 1000)))) batch.set(m.MessageId, m);
      } catch (error) {
        // What was received is handled; the next batch receives again.
        if (!abort.signal.aborted) log.warn("queue poller: receiving failed, handling the batch so far", describeError(error));
        break;
      }
    }
    return [...batch.values()];
  }

  const loop = (async () => {
    while (!abort.signal.aborted) {
      let messages: Message[];
      try {
        messages = await receive(batchSize, options.waitTimeSeconds ?? 20);
      } catch (error) {
        if (abort.signal.aborted) break;
        log.warn("queue poller: receiving failed, retrying", describeError(error));
        await new Promise((r) => setTimeout(r, 1_000));
        continue;
      }
      if (messages.length > 0 && windowMs > 0) messages = await fill(messages);
      if (messages.length > 0) await invoke(messages);
    }
  })();

  return {
    stats: () => ({ ...stats, bySize: [...stats.bySize] }),
    stop: async () => {
      abort.abort();
      await loop;
    },
  };
}
