/**
 * A pipeline process of its own for the durability test (test/local-stack/pipeline/follower-durability.test.ts):
 * an in-memory SQS emulator, the stream follower on the test table with its position in
 * DATA_DIR, and (unless CONSUME_LIMIT is "0") the queue poller with a consumer that appends each
 * delivered item's pk to DELIVERIES_FILE and succeeds for the first CONSUME_LIMIT messages, then
 * fails every message (they stay in the queue). It prints the follower's stats as JSON lines; the
 * test kills it with SIGKILL, so nothing here gets to clean up, exactly like a crashed stack.
 *
 * With BATCHES_FILE set, it also plays the bookkeeper (batches of BOOKKEEPER_BATCH_SIZE of the
 * same items): each batch handed over is appended as a JSON line `{eventIds}` when the handler
 * starts and `{done: firstEventId}` when it ends; with HANG_ON_FIRST_BATCH=1 the first batch's
 * handler never ends, so the test can kill the process in the middle of it.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBStreamEvent, SQSEvent } from "aws-lambda";
import { LOCAL_CREDENTIALS, startSqs } from "../../../../infra/local/emulators";
import { startQueuePoller } from "../../../../infra/local/queue-poller";
import { startStreamFollower } from "../../../../infra/local/stream-follower";
import { parseStreamRecord } from "../../../../lib/pipeline/stream-record";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const dataDir = env("DATA_DIR");
const itemType = env("ITEM_TYPE");
const deliveriesFile = env("DELIVERIES_FILE");
const consumeLimit = Number(process.env.CONSUME_LIMIT ?? "Infinity");
const region = env("AWS_REGION");
const batchesFile = process.env.BATCHES_FILE;
const hangOnFirst = process.env.HANG_ON_FIRST_BATCH === "1";
let batches = 0;

/** The bookkeeper's stand-in: records each batch it is handed, before and after. */
async function bookkeep(event: DynamoDBStreamEvent): Promise<void> {
  const eventIds = event.Records.map((r) => r.eventID);
  appendFileSync(batchesFile as string, `${JSON.stringify({ eventIds })}\n`);
  batches += 1;
  if (hangOnFirst && batches === 1) await new Promise(() => undefined);
  appendFileSync(batchesFile as string, `${JSON.stringify({ done: eventIds[0] })}\n`);
}

const sqs = await startSqs(0);
const follower = await startStreamFollower({
  dynamodb: new DynamoDBClient({ endpoint: env("DYNAMODB_ENDPOINT"), region, credentials: LOCAL_CREDENTIALS }),
  dynamodbEndpoint: env("DYNAMODB_ENDPOINT"),
  region,
  accessKeyId: LOCAL_CREDENTIALS.accessKeyId,
  tableName: env("TABLE_NAME"),
  sqs: sqs.client,
  queueUrl: sqs.queueUrl,
  positionFile: join(dataDir, "stream-position.json"),
  filters: [{ dynamodb: { NewImage: { type: { S: [itemType] } } } }],
  idleMs: 50,
  ...(batchesFile
    ? {
        bookkeeper: {
          handler: bookkeep,
          batchSize: Number(process.env.BOOKKEEPER_BATCH_SIZE ?? "10"),
          filters: [{ eventName: ["INSERT"], dynamodb: { NewImage: { type: { S: [itemType] } } } }],
        },
      }
    : {}),
});

let consumed = 0;
if (consumeLimit > 0) {
  await startQueuePoller({
    sqs: sqs.client,
    queueUrl: sqs.queueUrl,
    waitTimeSeconds: 1,
    onSettled: (messageIds) => follower.settle(messageIds),
    handler: async (event: SQSEvent) => {
      const batchItemFailures: { itemIdentifier: string }[] = [];
      for (const record of event.Records) {
        if (consumed >= consumeLimit) {
          batchItemFailures.push({ itemIdentifier: record.messageId });
          continue;
        }
        const parsed = parseStreamRecord(record.body);
        if (!parsed.ok) throw new Error(parsed.reason);
        appendFileSync(deliveriesFile, `${String(parsed.item?.pk)}\n`);
        consumed += 1;
      }
      return { batchItemFailures };
    },
  });
}

let last = "";
setInterval(() => {
  const line = JSON.stringify({ ...follower.stats(), consumed });
  if (line !== last) process.stdout.write(`${line}\n`);
  last = line;
}, 50);
