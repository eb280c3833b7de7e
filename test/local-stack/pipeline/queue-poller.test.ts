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
 * of its own with a 1 s visibility timeout so redeliveries come quickly.
 */
const sqs = new SQSClient({ endpoint: process.env.SQS_ENDPOINT, region: process.env.AWS_REGION });

async function createQueues(maxReceiveCount: number) {
  const name = `poller-test-${randomUUID()}`;
  const dlqUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }))).QueueUrl as string;
  const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ["QueueArn"] }))).Attributes
    ?.QueueArn;
  const queueUrl = (
    await sqs.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: {
          VisibilityTimeout: "1",
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
  test("a poison record ends in the DLQ after maxReceiveCount receives; the good ones in its batch are processed once", async () => {
    const errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
    const { queueUrl, queueArn, dlqUrl } = await createQueues(3);
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
