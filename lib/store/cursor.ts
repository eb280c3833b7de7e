import { decodeCursorValue, encodeCursorValue } from "../cursor";
import { AppError } from "../errors";

/**
 * The cursors of the store's lists (./pagination.ts, ./filtered-query.ts): a cursor holds the key
 * a list stopped at, in the one cursor codec (lib/cursor.ts). Decoding checks it against the list it is
 * given to: exactly the key attributes that query returns (the table's `pk`/`sk`, plus
 * `gsi1pk`/`gsi1sk` on the index), in the queried partition, under its sort-key prefix and
 * within its sort-key range, and within DynamoDB's key sizes. A crafted start key is a 400
 * INVALID_CURSOR here, never a ValidationException (a 500) from DynamoDB.
 */

/** DynamoDB's key attribute limits, in bytes: a partition key 2048, a sort key 1024. */
const MAX_PK_BYTES = 2048;
const MAX_SK_BYTES = 1024;

/** Whether `value` can be a key attribute of this table (`pk`/`gsi1pk` or `sk`/`gsi1sk`) at all. */
export const isKeyValue = (value: unknown, role: "partition" | "sort"): value is string =>
  typeof value === "string" &&
  value.length > 0 &&
  Buffer.byteLength(value) <= (role === "partition" ? MAX_PK_BYTES : MAX_SK_BYTES);

const TABLE_KEY = ["pk", "sk"] as const;
const INDEX_KEY = ["pk", "sk", "gsi1pk", "gsi1sk"] as const;

/** A sort key range: `from` inclusive, `before` exclusive; either may be open. */
export interface SortRange {
  from?: string;
  before?: string;
}

/** The list a cursor must belong to. */
export interface CursorScope {
  /** The query reads GSI1 (its keys then carry the index's key attributes too). */
  index: boolean;
  partition: string;
  /** The sort key's prefix (`begins_with`). */
  prefix?: string;
  /** The sort key's bounds (DynamoDB refuses a start key outside the key condition). */
  range?: SortRange;
}

const invalidCursor = () => new AppError("INVALID_CURSOR", "The cursor is not valid for this list");

/** The cursor of the key a list stopped at (a LastEvaluatedKey, or the last item it answered). */
export function encodeCursor(key: Record<string, unknown>, index: boolean): string {
  const attributes = index ? INDEX_KEY : TABLE_KEY;
  return encodeCursorValue(Object.fromEntries(attributes.map((name) => [name, key[name]])));
}

/** The start key a cursor names, checked against the list it was given to (else 400 INVALID_CURSOR). */
export function decodeCursor(cursor: string, scope: CursorScope): Record<string, string> {
  const found = decodeCursorValue(cursor);
  if (!found) throw invalidCursor();
  const attributes: readonly string[] = scope.index ? INDEX_KEY : TABLE_KEY;
  const [pkAttr, skAttr] = scope.index ? ["gsi1pk", "gsi1sk"] : ["pk", "sk"];
  const wellFormed =
    Object.keys(found).length === attributes.length &&
    attributes.every((name) => isKeyValue(found[name], name === "pk" || name === "gsi1pk" ? "partition" : "sort"));
  if (!wellFormed || found[pkAttr] !== scope.partition) throw invalidCursor();
  const sk = found[skAttr] as string;
  const { prefix, range } = scope;
  if (prefix !== undefined && !sk.startsWith(prefix)) throw invalidCursor();
  // A cursor from another date range is the caller's mistake, answered as such rather than as a 500.
  if (range && ((range.from !== undefined && sk < range.from) || (range.before !== undefined && sk >= range.before))) {
    throw invalidCursor();
  }
  return found as Record<string, string>;
}
