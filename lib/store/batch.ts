import { BatchGetCommand, BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import type { Key } from "./keys";

/** BatchGetItem takes at most 100 keys, BatchWriteItem at most 25 requests. */
const GET_CHUNK = 100;
const WRITE_CHUNK = 25;
/** Write chunks in flight at once: enough to be quick, few enough not to throttle a cold partition. */
const PARALLEL = 4;
/** Sends of one BatchGetItem chunk before keys DynamoDB keeps leaving unprocessed are an error. */
const GET_ATTEMPTS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const keyOf = (item: { pk?: unknown; sk?: unknown }) => `${item.pk}\u0000${item.sk}`;

/**
 * Reads items by key with BatchGetItem: one round trip for up to 100 keys (more are read 100 at a
 * time, one chunk after another), in the order asked, undefined where absent. Keys DynamoDB
 * leaves unprocessed (throttling) are asked again with backoff; a repeated key is read once.
 * `projection` names the attributes wanted (`pk` and `sk` are added: they place each item).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html
 */
export async function batchGet(
  keyList: readonly Key[],
  options: { projection?: string; names?: Record<string, string> } = {},
): Promise<(Record<string, unknown> | undefined)[]> {
  const TableName = tableName();
  const distinct = [...new Map(keyList.map((key) => [keyOf(key), { pk: key.pk, sk: key.sk }])).values()];
  const found = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < distinct.length; i += GET_CHUNK) {
    let pending: Key[] = distinct.slice(i, i + GET_CHUNK);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= GET_ATTEMPTS) throw new Error("BatchGetItem kept returning unprocessed keys");
      if (attempt > 0) await sleep(Math.min(1000, 25 * 2 ** attempt));
      const out = await db().send(
        new BatchGetCommand({
          RequestItems: {
            [TableName]: {
              Keys: pending,
              ...(options.projection ? { ProjectionExpression: `pk, sk, ${options.projection}` } : {}),
              ...(options.names ? { ExpressionAttributeNames: options.names } : {}),
            },
          },
        }),
      );
      for (const item of out.Responses?.[TableName] ?? []) found.set(keyOf(item), item);
      pending = (out.UnprocessedKeys?.[TableName]?.Keys as Key[] | undefined) ?? [];
    }
  }
  return keyList.map((key) => found.get(keyOf(key)));
}

/** One request of a BatchWriteItem: put an item, or delete one by key. */
export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Key } };

/**
 * Writes every request, 25 per BatchWriteItem (a few in flight), retrying unprocessed items
 * with backoff. Puts and deletes are idempotent, so a repeated call is harmless; a key must not
 * appear twice in one call (DynamoDB refuses a batch that names a key twice).
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html
 */
export async function batchWrite(requests: readonly WriteRequest[]): Promise<void> {
  const TableName = tableName();
  const chunks: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += WRITE_CHUNK) chunks.push(requests.slice(i, i + WRITE_CHUNK));
  const run = async (chunk: WriteRequest[]) => {
    let pending = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 10) throw new Error("BatchWriteItem kept returning unprocessed items");
      if (attempt > 0) await sleep(Math.min(2000, 50 * 2 ** attempt));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [TableName]: pending as never } }));
      pending = (out.UnprocessedItems?.[TableName] ?? []) as WriteRequest[];
    }
  };
  for (let i = 0; i < chunks.length; i += PARALLEL) {
    await Promise.all(chunks.slice(i, i + PARALLEL).map(run));
  }
}

/**
 * Deletes every key (see batchWrite). Deleting an absent item succeeds, so a repeated call (a
 * redelivered purge message) is harmless.
 */
export const deleteKeys = (keyList: Key[]): Promise<void> => batchWrite(keyList.map((Key) => ({ DeleteRequest: { Key } })));
