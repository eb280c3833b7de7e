import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import type { Key } from "./keys";

/** BatchWriteItem takes at most 25 requests. */
const CHUNK = 25;
/** Chunks in flight at once: enough to be quick, few enough not to throttle a cold partition. */
const PARALLEL = 4;

/**
 * Deletes every key, 25 per BatchWriteItem, retrying unprocessed items with backoff. Deleting
 * an absent item succeeds, so a repeated call (a redelivered purge message) is harmless.
 */
export async function deleteKeys(keyList: Key[]): Promise<void> {
  const TableName = tableName();
  const chunks: Key[][] = [];
  for (let i = 0; i < keyList.length; i += CHUNK) chunks.push(keyList.slice(i, i + CHUNK));
  const run = async (chunk: Key[]) => {
    let pending = chunk.map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 10) throw new Error("BatchWriteItem kept returning unprocessed items");
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(2000, 50 * 2 ** attempt)));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [TableName]: pending } }));
      pending = (out.UnprocessedItems?.[TableName] ?? []) as typeof pending;
    }
  };
  for (let i = 0; i < chunks.length; i += PARALLEL) {
    await Promise.all(chunks.slice(i, i + PARALLEL).map(run));
  }
}
