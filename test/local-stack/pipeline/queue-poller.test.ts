import { createHash, randomUUID } from "node:crypto";
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import { jest } from "@jest/globals";
import type { Context, SQSEvent } from "aws-lambda";
import { messagesToRetry, type SqsHandler, startQueuePoller } from "../../../infra/local/queue-poller";
import { processMessages } from "../../../lib/pipeline/batch";
import { eventually } from "../../support/eventually";
import { streamRecord } from "./support/records";

/**
 * The local stand-in for Lambda's SQS event source, against the stack's SQS emulator, on queues
 * of its own with a 1 s visibility timeout (unless a test says otherwise) so redeliveries come quickly.
 */
const sqs = new SQSClient({ endpoint: process.env.SQS_ENDPOINT, region: process.env.AWS_REGION });

async function createQueues(maxReceiveCount: number, visibilityTimeoutSeconds = 1) {
  const name = `poller-test-${randomUUID()}`;
  const dlqUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }))).QueueUrl as string;
  const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ["QueueArn"] }))).Attributes
    ?.QueueArn;
  const queueUrl = (
    await sqs.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          VisibilityTimeout: String(visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount }),
        },
      }),
    )
  ).QueueUrl as string;
  const queueArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] })))
    .Attributes?.QueueArn;
  return { queueUrl, queueArn, dlqUrl };
}

async function send(queueUrl: string, bodies: string[]): Promise<string[]> {
  const out = await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: bodies.map((MessageBody, i) => ({ Id: String(i), MessageBody })),
    }),
  );
  expect(out.Failed ?? []).toEqual([]);
  return bodies.map((_, i) => out.Successful?.find((s) => s.Id === String(i))?.MessageId as string);
}

/** Whether the queue holds no message at all: none visible, none in flight, none delayed. */
async function empty(queueUrl: string): Promise<boolean> {
  const counts = (
    await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: [
          "ApproximateNumberOfMessages",
          "ApproximateNumberOfMessagesNotVisible",
          "ApproximateNumberOfMessagesDelayed",
        ],
      }),
    )
  ).Attributes;
  return Object.values(counts ?? {}).every((count) => count === "0");
}

const receiveAll = async (queueUrl: string) =>
  (await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }))).Messages ?? [];

describe("the local queue poller", () => {
  test.each([
    ["no batching window", 0],
    ["a batching window of 1 s", 1000],
  ])(
    "%s: a poison record ends in the DLQ after maxReceiveCount receives; the good ones in its batch are processed once",
    async (_name, batchingWindowMs) => {
      const errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
      // A visibility timeout longer than a window and its last whole-second wait, as the deployed queue's is.
      const { queueUrl, queueArn, dlqUrl } = await createQueues(3, batchingWindowMs === 0 ? 1 : 3);
      const good = Array.from({ length: 9 }, (_, i) =>
        JSON.stringify(streamRecord("INSERT", { pk: `GOOD#${i}`, sk: "GOOD", type: "pipeline-good" })),
      );
      const poison = JSON.stringify(streamRecord("INSERT", { pk: "POISON#1", sk: "POISON", type: "mystery" }));
      const ids = await send(queueUrl, [...good, poison]);
      const poisonId = ids[9] as string;

      const processed: unknown[] = [];
      const receives = new Map<string, number>();
      const events: { event: SQSEvent; remainingMs: number }[] = [];
      const settled: string[] = [];
      const handler: SqsHandler = async (event: SQSEvent, context: Context) => {
        events.push({ event, remainingMs: context.getRemainingTimeInMillis() });
        for (const record of event.Records) receives.set(record.messageId, (receives.get(record.messageId) ?? 0) + 1);
        return processMessages(event.Records, {
          records: {
            "pipeline-good": async (item) => {
              processed.push(item.pk);
            },
          },
          messages: {},
        });
      };
      const poller = await startQueuePoller({
        sqs,
        queueUrl,
        handler,
        timeoutSeconds: 30,
        waitTimeSeconds: 1,
        batchingWindowMs,
        onSettled: (messageIds) => settled.push(...messageIds),
      });
      let errorLines: string[];
      try {
        const dead = await eventually("the poison record in the DLQ", async () => (await receiveAll(dlqUrl))[0]);
        expect(dead.Body).toBe(poison);
      } finally {
        await poller.stop();
        errorLines = errors.mock.calls.map((call) => String(call[0]));
        errors.mockRestore();
      }

      expect(processed.sort()).toEqual(Array.from({ length: 9 }, (_, i) => `GOOD#${i}`).sort());
      expect(receives.get(poisonId)).toBe(3);
      for (const id of ids.slice(0, 9)) expect(receives.get(id)).toBe(1);
      // The poison message came in the same first batch as the good ones.
      expect(events[0]?.event.Records.map((r) => r.messageId).sort()).toEqual([...ids].sort());
      expect(settled.sort()).toEqual([...ids].sort());
      expect(await receiveAll(queueUrl)).toEqual([]);

      // Lambda's event shape and context.
      const first = events[0]?.event.Records.find((r) => r.messageId === ids[0]);
      expect(first).toMatchObject({
        body: good[0],
        eventSource: "aws:sqs",
        eventSourceARN: queueArn,
        awsRegion: process.env.AWS_REGION,
        md5OfBody: createHash("md5")
          .update(good[0] as string)
          .digest("hex"),
        messageAttributes: {},
        attributes: { ApproximateReceiveCount: "1", SenderId: expect.any(String), SentTimestamp: expect.any(String) },
      });
      expect(first?.receiptHandle).toEqual(expect.any(String));
      expect(events[0]?.remainingMs).toBeGreaterThan(25_000);
      expect(events[0]?.remainingMs).toBeLessThanOrEqual(30_000);
      // Each failure of the poison record was logged as an error.
      expect(errorLines.filter((line) => line.includes(poisonId))).toHaveLength(3);
    },
    30_000,
  );

  test("with a batching window, a batch fills while messages come and goes when full; the rest waits at most the window", async () => {
    const { queueUrl } = await createQueues(5, 30);
    const batches: { size: number; at: number }[] = [];
    const handler: SqsHandler = async (event) => {
      batches.push({ size: event.Records.length, at: Date.now() });
      return undefined;
    };
    const poller = await startQueuePoller({ sqs, queueUrl, handler, waitTimeSeconds: 1, batchingWindowMs: 2000 });
    try {
      // 12 messages in three clumps a few hundred ms apart, all within the window of the first.
      const started = Date.now();
      for (const clump of [0, 1, 2]) {
        await send(
          queueUrl,
          ["a", "b", "c", "d"].map((x) => `${clump}${x}`),
        );
        await new Promise((r) => setTimeout(r, 300));
      }
      await eventually("every message handled", () => batches.reduce((n, b) => n + b.size, 0) === 12);
      // The first batch left full, before its window was over; the other two waited for theirs.
      expect(batches.map((b) => b.size)).toEqual([10, 2]);
      expect((batches[0]?.at ?? 0) - started).toBeLessThan(2000);
      expect((batches[1]?.at ?? 0) - (batches[0]?.at ?? 0)).toBeGreaterThanOrEqual(1500);
      const stats = poller.stats();
      expect(stats).toMatchObject({ invocations: 2, messages: 12, deletes: 2 });
      expect(stats.bySize[10]).toBe(1);
      expect(stats.bySize[2]).toBe(1);
      // At least one receive per clump and one for the rest; never more messages than receives that brought some.
      expect(stats.receives - stats.emptyReceives).toBeGreaterThanOrEqual(4);
      expect(stats.receives - stats.emptyReceives).toBeLessThanOrEqual(12);
    } finally {
      await poller.stop();
    }
    expect(await empty(queueUrl)).toBe(true);
  }, 30_000);

  test("with a batching window, a lone message is handled within about the window", async () => {
    // A visibility timeout shorter than the window: the message comes back during it, and is handled once.
    const { queueUrl } = await createQueues(5, 1);
    let handledAt = 0;
    const poller = await startQueuePoller({
      sqs,
      queueUrl,
      handler: async () => {
        handledAt = Date.now();
        return undefined;
      },
      waitTimeSeconds: 1,
      batchingWindowMs: 1000,
    });
    try {
      const sentAt = Date.now();
      await send(queueUrl, ["alone"]);
      await eventually("the message handled", () => handledAt > 0);
      // Received within a long poll, then a window of 1 s (up to 2 s: whole-second waits).
      expect(handledAt - sentAt).toBeGreaterThanOrEqual(900);
      expect(handledAt - sentAt).toBeLessThan(3000);
      expect(poller.stats()).toMatchObject({ invocations: 1, messages: 1 });
    } finally {
      await poller.stop();
    }
  }, 30_000);

  test("a throw, a malformed response or a timeout deletes nothing; a partial response deletes the rest", async () => {
    const errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
    const { queueUrl } = await createQueues(10);
    const ids = await send(queueUrl, ["a", "b", "c"]);
    const receives = new Map<string, number>();
    let invocation = 0;
    const handler: SqsHandler = async (event) => {
      invocation += 1;
      for (const record of event.Records) receives.set(record.messageId, (receives.get(record.messageId) ?? 0) + 1);
      if (invocation === 1) throw new Error("the whole batch failed");
      if (invocation === 2) return { batchItemFailures: [{ itemIdentifier: "not-in-this-batch" }] };
      if (invocation === 3) return new Promise(() => undefined);
      if (invocation === 4) return { batchItemFailures: [{ itemIdentifier: ids[0] }] };
      return undefined;
    };
    const poller = await startQueuePoller({ sqs, queueUrl, handler, timeoutSeconds: 1, waitTimeSeconds: 1 });
    try {
      await eventually("a fifth receive of the first message", () => (receives.get(ids[0] as string) ?? 0) >= 5);
      // Every message deleted: a wrongly kept one would stay in flight, then come back.
      await eventually("the queue empty", () => empty(queueUrl));
    } finally {
      await poller.stop();
      errors.mockRestore();
    }
    expect(receives.get(ids[0] as string)).toBe(5);
    expect(receives.get(ids[1] as string)).toBe(4);
    expect(receives.get(ids[2] as string)).toBe(4);
    expect(await receiveAll(queueUrl)).toEqual([]);
  }, 30_000);
});

describe("the batch response contract", () => {
  const batch = new Set(["m1", "m2"]);
  test.each([
    ["no response", undefined, []],
    ["null", null, []],
    ["an empty object", {}, []],
    ["a null list", { batchItemFailures: null }, []],
    ["an empty list", { batchItemFailures: [] }, []],
    ["one failure", { batchItemFailures: [{ itemIdentifier: "m2" }] }, ["m2"]],
  ])("%s: retries only the listed messages", (_name, response, retry) => {
    expect([...(messagesToRetry(response, batch) as Set<string>)]).toEqual(retry);
  });

  test.each([
    ["a string", "ok"],
    ["a list", []],
    ["a list that is not one", { batchItemFailures: "m1" }],
    ["an empty identifier", { batchItemFailures: [{ itemIdentifier: "" }] }],
    ["a null identifier", { batchItemFailures: [{ itemIdentifier: null }] }],
    ["a misspelt key", { batchItemFailures: [{ itemIdentifer: "m1" }] }],
    ["an id not in the batch", { batchItemFailures: [{ itemIdentifier: "m3" }] }],
    ["a null entry", { batchItemFailures: [null] }],
  ])("%s: the whole batch is retried", (_name, response) => {
    expect(messagesToRetry(response, batch)).toBe("all");
  });
});
