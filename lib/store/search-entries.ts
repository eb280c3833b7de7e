import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { batchGet, batchWrite, type WriteRequest } from "./batch";
import { decodeCursor, encodeCursor, type SortRange } from "./cursor";
import { isExpired } from "./expiry";
import { keyCondition } from "./filtered-query";
import { keys } from "./keys";
import type { Page } from "./pagination";
import { type StoredSubmission, toSubmission } from "./submissions";

/**
 * A form's search index (docs/data-model.md, "Search entry"): one small item per search key of
 * each submission, `pk = FIND#<formId>#<token>`, `sk = <createdAt>#<submissionId>`, so the
 * submissions holding a key are one partition, newest first, with the list's date range as a
 * key condition. Written and deleted by the bookkeeper from the table stream
 * (lib/bookkeeping/index-submissions.ts); read by the inbox's search (lib/submissions.ts).
 */

/** One submission's entry under one key (the key as its digest, lib/search-keys.ts `searchToken`). */
export interface SearchEntry {
  formId: string;
  token: string;
  createdAt: string;
  submissionId: string;
}

const entryKey = (e: SearchEntry) => keys.searchEntry(e.formId, e.token, e.createdAt, e.submissionId);

/**
 * Puts and deletes entries in BatchWriteItem calls (./batch.ts). Both are idempotent, so a
 * stream batch handed over again writes the same items again and needs no checkpoint; a key
 * both put and deleted in one call is left as its last request says (`changes` in record order).
 */
export async function writeSearchEntries(changes: readonly { entry: SearchEntry; put: boolean }[]): Promise<void> {
  const last = new Map<string, WriteRequest>();
  for (const { entry, put } of changes) {
    const key = entryKey(entry);
    const id = `${key.pk}\u0000${key.sk}`;
    last.delete(id); // keeps the map in the order of each key's last change
    last.set(
      id,
      put
        ? { PutRequest: { Item: { ...key, type: "search_entry", submissionId: entry.submissionId } } }
        : { DeleteRequest: { Key: key } },
    );
  }
  await batchWrite([...last.values()]);
}

/**
 * One step of a search: the next `examine` entries of the key's partition (newest first, within
 * `range`), after `cursor`, and their submissions read with one BatchGetItem, in the entries'
 * order. An entry whose submission is gone (deleted a moment ago; the bookkeeper deletes its
 * entries within seconds) is skipped. The cursor is the last entry examined, null at the end.
 * Two round trips whatever the form's size.
 */
export async function searchStep(
  formId: string,
  token: string,
  range: SortRange,
  examine: number,
  cursor?: string,
): Promise<Page<StoredSubmission>> {
  const partition = keys.searchPartition(formId, token);
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      ...keyCondition(partition, range, { pk: "pk", sk: "sk" }),
      ScanIndexForward: false,
      Limit: examine,
      ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, { index: false, partition, range }) } : {}),
    }),
  );
  const ids = (out.Items ?? []).map((item) => String(item.submissionId));
  const found = ids.length > 0 ? await batchGet(ids.map((id) => keys.submission(id))) : [];
  // An expired submission (./expiry.ts) is gone, as one deleted a moment ago is.
  const items = found.flatMap((item) => (item && item.formId === formId && !isExpired(item.ttl) ? [toSubmission(item)] : []));
  return { items, nextCursor: out.LastEvaluatedKey ? encodeCursor(out.LastEvaluatedKey, false) : null };
}
