import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { AppError } from "../errors";
import { isKeyValue, type Page } from "./pagination";
import { GSI1 } from "./table-definition";

/**
 * Cursor-paginated reads of one gsi1 partition where some items are filtered out (spam, search,
 * archived forms). DynamoDB applies `Limit` before any filter, so a filtered page is filled by
 * reading on until `limit` items matched or `maxExamined` items were read; the cursor is the key
 * of the last item examined, so the next request resumes right after it. A page may therefore
 * hold fewer than `limit` items (even none) and still have a `nextCursor`.
 *
 * (lib/store/pagination.ts serves unfiltered lists; its cursor codec is private to it, and this
 * one additionally checks the cursor against the sort key range.)
 */

const INDEX_KEY_ATTRIBUTES = ["pk", "sk", "gsi1pk", "gsi1sk"] as const;

function invalidCursor(): AppError {
  return new AppError("INVALID_CURSOR", "The cursor is not valid for this list");
}

function decodeCursor(cursor: string, partition: string, range: SortRange): Record<string, string> {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  if (key === null || typeof key !== "object" || Array.isArray(key)) throw invalidCursor();
  const entries = Object.entries(key as Record<string, unknown>);
  const valid =
    entries.length === INDEX_KEY_ATTRIBUTES.length &&
    entries.every(
      ([name, value]) =>
        (INDEX_KEY_ATTRIBUTES as readonly string[]).includes(name) &&
        isKeyValue(value, name === "pk" || name === "gsi1pk" ? "partition" : "sort"),
    ) &&
    (key as Record<string, string>).gsi1pk === partition;
  if (!valid) throw invalidCursor();
  const sk = (key as Record<string, string>).gsi1sk as string;
  // DynamoDB refuses a start key outside the key condition; a cursor from another date range is
  // the caller's mistake, answered as such rather than as a 500.
  if ((range.from !== undefined && sk < range.from) || (range.before !== undefined && sk >= range.before)) {
    throw invalidCursor();
  }
  return key as Record<string, string>;
}

const encodeCursor = (item: Record<string, unknown>) =>
  Buffer.from(JSON.stringify(Object.fromEntries(INDEX_KEY_ATTRIBUTES.map((name) => [name, item[name]])))).toString("base64url");

/** A gsi1 sort key range: `from` inclusive, `before` exclusive; either may be open. */
export interface SortRange {
  from?: string;
  before?: string;
}

export interface FilteredQuery<T> {
  partition: string;
  range?: SortRange;
  newestFirst?: boolean;
  /** A DynamoDB filter evaluated server-side (saves transfer, not read capacity). */
  filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  /** Evaluated on each returned item, after `filter`. */
  match?: (item: Record<string, unknown>) => boolean;
  map: (item: Record<string, unknown>) => T;
}

function keyCondition(
  partition: string,
  range: SortRange,
): Pick<QueryCommandInput, "KeyConditionExpression" | "ExpressionAttributeNames" | "ExpressionAttributeValues"> {
  const names: Record<string, string> = { "#pk": "gsi1pk" };
  const values: Record<string, unknown> = { ":pk": partition };
  let condition = "#pk = :pk";
  if (range.from !== undefined || range.before !== undefined) names["#sk"] = "gsi1sk";
  if (range.from !== undefined && range.before !== undefined) {
    // BETWEEN is inclusive at both ends; `before` is never a whole sort key (those carry `#<id>`
    // after the timestamp), so including it excludes nothing that should be excluded.
    condition += " AND #sk BETWEEN :from AND :before";
    values[":from"] = range.from;
    values[":before"] = range.before;
  } else if (range.from !== undefined) {
    condition += " AND #sk >= :from";
    values[":from"] = range.from;
  } else if (range.before !== undefined) {
    condition += " AND #sk < :before";
    values[":before"] = range.before;
  }
  return { KeyConditionExpression: condition, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/**
 * Yields the partition's matching items page by page until it ends, resuming from `cursor`.
 * `onExamined` learns every DynamoDB page's ScannedCount and its last evaluated key.
 */
async function* readPages(
  query: FilteredQuery<unknown>,
  cursor: string | undefined,
  pageSize: () => number,
): AsyncGenerator<{ items: Record<string, unknown>[]; scanned: number; lastKey?: Record<string, unknown> }> {
  const range = query.range ?? {};
  const condition = keyCondition(query.partition, range);
  let start: Record<string, unknown> | undefined = cursor ? decodeCursor(cursor, query.partition, range) : undefined;
  do {
    const input: QueryCommandInput = {
      TableName: tableName(),
      IndexName: GSI1,
      ...condition,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, ...(query.filter?.names ?? {}) },
      ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ...(query.filter?.values ?? {}) },
      ScanIndexForward: !query.newestFirst,
      Limit: pageSize(),
      ...(query.filter ? { FilterExpression: query.filter.expression } : {}),
      ...(start ? { ExclusiveStartKey: start } : {}),
    };
    const out = await db().send(new QueryCommand(input));
    start = out.LastEvaluatedKey;
    yield { items: out.Items ?? [], scanned: out.ScannedCount ?? 0, ...(start ? { lastKey: start } : {}) };
  } while (start);
}

/**
 * One page of at most `limit` matching items, reading at most about `maxExamined` items
 * (whole DynamoDB pages: the last read may pass it by up to one page).
 */
export async function filteredPage<T>(
  query: FilteredQuery<T>,
  options: { limit: number; cursor?: string; maxExamined: number },
): Promise<Page<T>> {
  const found: T[] = [];
  let examined = 0;
  const unfiltered = !query.filter && !query.match;
  // Unfiltered, one query of `limit` items is exactly a page; filtered, read in larger steps.
  const pageSize = () => (unfiltered ? options.limit - found.length : Math.max(100, Math.min(options.limit * 4, 1000)));
  for await (const page of readPages(query as FilteredQuery<unknown>, options.cursor, pageSize)) {
    examined += page.scanned;
    for (const item of page.items) {
      if (query.match && !query.match(item)) continue;
      found.push(query.map(item));
      if (found.length === options.limit) {
        // Stopped inside a page: resume after this item (the rest of the page is read again).
        const isLastOfPartition = !page.lastKey && item === page.items[page.items.length - 1];
        return { items: found, nextCursor: isLastOfPartition ? null : encodeCursor(item) };
      }
    }
    if (!page.lastKey) return { items: found, nextCursor: null };
    if (examined >= options.maxExamined) return { items: found, nextCursor: encodeCursor(page.lastKey) };
  }
  return { items: found, nextCursor: null };
}

/** Every matching item of the partition, in pages as DynamoDB returns them (exports, erasure). */
export async function* allMatching<T>(
  query: FilteredQuery<T>,
  cursor?: string,
): AsyncGenerator<{ items: T[]; lastKey?: string }> {
  for await (const page of readPages(query as FilteredQuery<unknown>, cursor, () => 1000)) {
    const items = (query.match ? page.items.filter(query.match) : page.items).map(query.map);
    yield { items, ...(page.lastKey ? { lastKey: encodeCursor(page.lastKey) } : {}) };
  }
}
