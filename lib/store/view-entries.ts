import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { decodeCursorValue, encodeCursorValue } from "../cursor";
import { AppError } from "../errors";
import { batchGet, batchWrite, type WriteRequest } from "./batch";
import { isKeyValue } from "./cursor";
import { isExpired } from "./expiry";
import { keys } from "./keys";
import { SUBMISSION_STATUSES, type SubmissionStatus } from "./shapes";
import { type StoredSubmission, toSubmission } from "./submissions";
import { GSI1 } from "./table-definition";

/**
 * A form's filter entries (docs/data-model.md, "Filter entry"): for each inbox submission (not
 * spam, not expired) one small item per non-empty combination of its status (S), its owner (O)
 * and each of its tags (T), `pk = VIEW#<formId>#<facet>`, `sk = <createdAt>#<submissionId>`, so
 * the submissions of one filter are one partition, newest first, under the inbox's own sort key
 * (a date range is a key condition, the unread walk skips read ranges by key). Written and
 * deleted by the bookkeeper from the table stream (lib/bookkeeping/filter-submissions.ts); read
 * by the inbox's filters (lib/submission-filters.ts).
 */

/** What a filtered list asks for; every field present must hold. */
export interface FacetFilter {
  status?: SubmissionStatus;
  /** A member's userId, or "none" (nobody's). */
  owner?: string;
  tag?: string;
}

/** The triage attributes of a submission as stored (lib/store/shapes.ts; absent status means new). */
export const statusOf = (item: Record<string, unknown>): SubmissionStatus =>
  SUBMISSION_STATUSES.includes(item.status as SubmissionStatus) ? (item.status as SubmissionStatus) : "new";
export const ownerOf = (item: Record<string, unknown>): string =>
  typeof item.ownerId === "string" && item.ownerId ? item.ownerId : "none";
export const tagsOf = (item: Record<string, unknown>): string[] =>
  Array.isArray(item.tags) ? [...new Set(item.tags.filter((t): t is string => typeof t === "string" && t.length > 0))] : [];

/** Whether a stored submission is in the inbox now: not spam, not expired (./expiry.ts). */
export const inInbox = (item: Record<string, unknown>, nowS?: number) => item.isSpam === false && !isExpired(item.ttl, nowS);

/** The partition name of a filter (S, then O, then T, joined by `&`); undefined when it asks for nothing. */
export function facetOf(filter: FacetFilter): string | undefined {
  const parts = [
    filter.status === undefined ? undefined : `S=${filter.status}`,
    filter.owner === undefined ? undefined : `O=${filter.owner}`,
    filter.tag === undefined ? undefined : `T=${filter.tag}`,
  ].filter((p): p is string => p !== undefined);
  return parts.length > 0 ? parts.join("&") : undefined;
}

/** Every facet a submission's item is listed under: none unless it is an inbox submission. */
export function facetsOf(item: Record<string, unknown> | undefined, nowS?: number): string[] {
  if (item?.type !== "submission" || !inInbox(item, nowS)) return [];
  const status = statusOf(item);
  const owner = ownerOf(item);
  const one = (tag?: string) => [
    { ...(tag ? { tag } : {}), status },
    { ...(tag ? { tag } : {}), owner },
    { ...(tag ? { tag } : {}), status, owner },
  ];
  const filters: FacetFilter[] = [...one(), ...tagsOf(item).flatMap((tag) => [{ tag }, ...one(tag)])];
  return filters.map((f) => facetOf(f) as string);
}

/** Whether a submission (as read now) belongs in a filter's list: the entry it came from may be a moment stale. */
export function matchesFacet(item: Record<string, unknown>, filter: FacetFilter): boolean {
  if (!inInbox(item)) return false;
  if (filter.status !== undefined && statusOf(item) !== filter.status) return false;
  if (filter.owner !== undefined && ownerOf(item) !== filter.owner) return false;
  return filter.tag === undefined || tagsOf(item).includes(filter.tag);
}

/** One change of one entry: put (with the submission's expiry) or delete. */
export interface ViewEntryChange {
  formId: string;
  facet: string;
  createdAt: string;
  submissionId: string;
  /** Put with this `ttl` (undefined: none); null deletes the entry. */
  put: { ttl?: number } | null;
}

/**
 * Puts and deletes entries in BatchWriteItem calls (./batch.ts): idempotent, so a stream batch
 * handed over again needs no checkpoint; a key changed twice in one call is left as its last
 * change says (`changes` in record order).
 */
export async function writeViewEntries(changes: readonly ViewEntryChange[]): Promise<void> {
  const last = new Map<string, WriteRequest>();
  for (const c of changes) {
    const key = keys.viewEntry(c.formId, c.facet, c.createdAt, c.submissionId);
    const id = `${key.pk}\u0000${key.sk}`;
    last.delete(id);
    last.set(
      id,
      c.put
        ? {
            PutRequest: {
              Item: {
                ...key,
                type: "view_entry",
                submissionId: c.submissionId,
                ...(c.put.ttl === undefined ? {} : { ttl: c.put.ttl }),
              },
            },
          }
        : { DeleteRequest: { Key: key } },
    );
  }
  await batchWrite([...last.values()]);
}

/** A sort-key window of a partition, newest first: `from` inclusive, `before` exclusive; `after` resumes below a key. */
export interface KeyWindow {
  from?: string;
  before?: string;
}

/** A cursor of a filtered list: the sort key the next page continues below. */
export const encodeKeyCursor = (key: string) => encodeCursorValue({ below: key });

export function decodeKeyCursor(cursor: string, window: KeyWindow): string {
  const below = decodeCursorValue(cursor)?.below;
  const inWindow =
    isKeyValue(below, "sort") &&
    (window.from === undefined || below >= window.from) &&
    (window.before === undefined || below <= window.before);
  if (!inWindow) throw new AppError("INVALID_CURSOR", "The cursor is not valid for this list");
  return below as string;
}

/** One Query's worth of sort keys (and, for filter entries, submission ids) of a partition, newest first. */
export interface WindowRead {
  /** The items read, each with its sort key. */
  items: { sk: string; item: Record<string, unknown> }[];
  /** The last sort key examined when the window was not read to its end; undefined at its end. */
  stoppedAt?: string;
}

/**
 * Reads up to `limit` keys of a window, newest first, with one Query. Both bounds are kept exact:
 * a key condition takes `BETWEEN` (both ends inclusive) or one comparison, so the upper bound is
 * asked inclusively and the one item equal to it (a key already shown, or a range's first read
 * key) is dropped here. `onIndex` reads the form's plain inbox (GSI1), skipping spam and expired
 * submissions server-side; otherwise a filter partition (table keys).
 */
export async function readWindow(
  partition: { onIndex: boolean; pk: string },
  window: KeyWindow,
  limit: number,
): Promise<WindowRead> {
  const [pkName, skName] = partition.onIndex ? ["gsi1pk", "gsi1sk"] : ["pk", "sk"];
  const names: Record<string, string> = { "#pk": pkName as string, "#sk": skName as string };
  const values: Record<string, unknown> = { ":pk": partition.pk, ":from": window.from ?? "0" };
  let condition = "#pk = :pk AND #sk >= :from";
  if (window.before !== undefined) {
    condition = "#pk = :pk AND #sk BETWEEN :from AND :before";
    values[":before"] = window.before;
  }
  let filter: string | undefined;
  if (partition.onIndex) {
    filter = "#isSpam = :false AND (attribute_not_exists(#ttl) OR #ttl > :now)";
    Object.assign(names, { "#isSpam": "isSpam", "#ttl": "ttl" });
    Object.assign(values, { ":false": false, ":now": Math.floor(Date.now() / 1000) });
  }
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      ...(partition.onIndex ? { IndexName: GSI1 } : {}),
      KeyConditionExpression: condition,
      ...(filter ? { FilterExpression: filter } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      // One more than asked: the item equal to `before`, if any, is dropped below.
      Limit: limit + (window.before === undefined ? 0 : 1),
    }),
  );
  const items = (out.Items ?? [])
    .map((item) => ({ sk: String(item[skName as string]), item }))
    .filter((i) => window.before === undefined || i.sk < window.before);
  if (items.length > limit) return { items: items.slice(0, limit), stoppedAt: (items[limit - 1] as { sk: string }).sk };
  const lastKey = out.LastEvaluatedKey?.[skName as string];
  return { items, ...(typeof lastKey === "string" ? { stoppedAt: lastKey } : {}) };
}

/**
 * The submissions of filter entries, read with one BatchGetItem, in the entries' order: one that
 * is gone (deleted a moment ago; the bookkeeper deletes its entries within seconds), expired,
 * of another form, or no longer matching the filter (changed a moment ago) is skipped.
 */
export async function submissionsOfEntries(
  formId: string,
  entries: readonly Record<string, unknown>[],
  filter: FacetFilter,
): Promise<StoredSubmission[]> {
  const ids = entries.map((e) => String(e.submissionId));
  const found = ids.length > 0 ? await batchGet(ids.map((id) => keys.submission(id))) : [];
  return found.flatMap((item) => (item && item.formId === formId && matchesFacet(item, filter) ? [toSubmission(item)] : []));
}

/** The sort key and time of a form's newest submission (spam or not), or undefined for an empty form: one Query of one item. */
export async function newestSubmissionKey(formId: string): Promise<{ key: string; createdAt: string } | undefined> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.submissionIndexPartition(formId) },
      ProjectionExpression: "gsi1sk, createdAt",
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const newest = out.Items?.[0];
  return typeof newest?.gsi1sk === "string" ? { key: newest.gsi1sk, createdAt: String(newest.createdAt) } : undefined;
}

/** A submission's key in its form's inbox and in every filter partition. */
export const inboxKeyOf = (s: { formId: string; createdAt: string; id: string }) =>
  keys.submissionIndex(s.formId, s.createdAt, s.id).gsi1sk;

/** The form's plain inbox (GSI1) as a partition `readWindow` reads. */
export const inboxPartition = (formId: string) => ({ onIndex: true, pk: keys.submissionIndexPartition(formId) });

/** A filter's partition as `readWindow` reads it. */
export const facetPartition = (formId: string, facet: string) => ({ onIndex: false, pk: keys.viewPartition(formId, facet) });
