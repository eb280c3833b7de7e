import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { decodeCursor, encodeCursor, type SortRange } from "./cursor";
import { unexpiredFilter } from "./expiry";
import type { Page } from "./pagination";
import { GSI1 } from "./table-definition";

/**
 * Cursor-paginated reads of one gsi1 partition where some items are filtered out (spam, search,
 * archived forms). DynamoDB applies `Limit` before any filter, so a filtered page is filled by
 * reading on until `limit` items matched or `maxExamined` items were read; the cursor is the key
 * of the last item examined, so the next request resumes right after it. A page may therefore
 * hold fewer than `limit` items (even none) and still have a `nextCursor` (./cursor.ts).
 */

export interface FilteredQuery<T> {
  partition: string;
  range?: SortRange;
  newestFirst?: boolean;
  /** A DynamoDB filter evaluated server-side (saves transfer, not read capacity). */
  filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  /** Evaluated on each returned item, after `filter`. */
  match?: (item: Record<string, unknown>) => boolean;
  /**
   * Leave out items whose TTL has passed (./expiry.ts), server-side. Such items are rare (DynamoDB
   * deletes them within days), so unlike `filter` it does not make the page read in larger steps:
   * a page it thins is answered shorter, with its cursor.
   */
  unexpired?: boolean;
  map: (item: Record<string, unknown>) => T;
  /** Reads the table's own keys (`pk`/`sk`) instead of GSI1 (the audit log's partition). */
  onTable?: boolean;
}

/** The key condition of a partition and a sort key range, on gsi1 (the default) or on the table's own keys. */
export function keyCondition(
  partition: string,
  range: SortRange,
  attributes: { pk: string; sk: string } = { pk: "gsi1pk", sk: "gsi1sk" },
): Pick<QueryCommandInput, "KeyConditionExpression" | "ExpressionAttributeNames" | "ExpressionAttributeValues"> {
  const names: Record<string, string> = { "#pk": attributes.pk };
  const values: Record<string, unknown> = { ":pk": partition };
  let condition = "#pk = :pk";
  if (range.from !== undefined || range.before !== undefined) names["#sk"] = attributes.sk;
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

/** The query's `filter` and, when asked, the TTL's (./expiry.ts), as one filter expression. */
function combinedFilter(query: FilteredQuery<unknown>): FilteredQuery<unknown>["filter"] {
  if (!query.unexpired) return query.filter;
  const live = unexpiredFilter();
  if (!query.filter) return live;
  return {
    expression: `(${query.filter.expression}) AND ${live.expression}`,
    names: { ...query.filter.names, ...live.names },
    values: { ...query.filter.values, ...live.values },
  };
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
  const index = !query.onTable;
  const condition = index ? keyCondition(query.partition, range) : keyCondition(query.partition, range, { pk: "pk", sk: "sk" });
  const filter = combinedFilter(query);
  let start: Record<string, unknown> | undefined = cursor
    ? decodeCursor(cursor, { index, partition: query.partition, range })
    : undefined;
  do {
    const input: QueryCommandInput = {
      TableName: tableName(),
      ...(index ? { IndexName: GSI1 } : {}),
      ...condition,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, ...(filter?.names ?? {}) },
      ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ...(filter?.values ?? {}) },
      ScanIndexForward: !query.newestFirst,
      Limit: pageSize(),
      ...(filter ? { FilterExpression: filter.expression } : {}),
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
  const index = !query.onTable;
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
        return { items: found, nextCursor: isLastOfPartition ? null : encodeCursor(item, index) };
      }
    }
    if (!page.lastKey) return { items: found, nextCursor: null };
    if (examined >= options.maxExamined) return { items: found, nextCursor: encodeCursor(page.lastKey, index) };
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
    yield { items, ...(page.lastKey ? { lastKey: encodeCursor(page.lastKey, true) } : {}) };
  }
}
