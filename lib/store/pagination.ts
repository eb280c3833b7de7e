import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { AppError } from "../errors";
import { GSI1 } from "./table-definition";

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** DynamoDB's key attribute limits, in bytes: a partition key 2048, a sort key 1024. */
const MAX_PK_BYTES = 2048;
const MAX_SK_BYTES = 1024;

const keyString = (value: unknown, max: number): value is string =>
  typeof value === "string" && value.length > 0 && Buffer.byteLength(value) <= max;

/** Whether `value` can be a key attribute of this table (`pk`/`gsi1pk` or `sk`/`gsi1sk`) at all. */
export const isKeyValue = (value: unknown, role: "partition" | "sort"): value is string =>
  keyString(value, role === "partition" ? MAX_PK_BYTES : MAX_SK_BYTES);

/**
 * Cursor: the opaque base64url of the last evaluated key. It must be exactly the key this query
 * returns (the table's `pk`/`sk`, plus `gsi1pk`/`gsi1sk` on the index), lie in the queried
 * partition and under its sort-key prefix, and keep to DynamoDB's key sizes: a crafted start key
 * is a 400 here, never a ValidationException (500) from DynamoDB.
 */
function decodeCursor(
  cursor: string,
  query: { pkAttr: string; skAttr: string; partition: string; prefix?: string },
): Record<string, string> {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    key = undefined;
  }
  const attrs = query.pkAttr === "pk" ? ["pk", "sk"] : ["pk", "sk", query.pkAttr, query.skAttr];
  const valid =
    key !== null &&
    typeof key === "object" &&
    !Array.isArray(key) &&
    Object.keys(key).length === attrs.length &&
    attrs.every((attr, i) => keyString((key as Record<string, unknown>)[attr], i % 2 === 0 ? MAX_PK_BYTES : MAX_SK_BYTES)) &&
    (key as Record<string, string>)[query.pkAttr] === query.partition &&
    (query.prefix === undefined || ((key as Record<string, string>)[query.skAttr] ?? "").startsWith(query.prefix));
  if (!valid) throw new AppError("INVALID_CURSOR", "The cursor is not valid for this list");
  return key as Record<string, string>;
}

const encodeCursor = (key: Record<string, unknown> | undefined) =>
  key ? Buffer.from(JSON.stringify(key)).toString("base64url") : null;

/**
 * Every item a query matches, page after page (TableName is this table's). For partitions
 * bounded by a limit (a site's webhooks, a form's endpoints, an organization's keys), which
 * fit one page in practice; the loop is there for the day an item grows past 1 MB / limit.
 */
export async function queryAll(
  input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey">,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  await forEachPage(input, (out) => items.push(...(out.Items ?? [])));
  return items;
}

/** Runs a query of this table page after page to its end, handing each page's output to `onPage`. */
export async function forEachPage(
  input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey">,
  onPage: (out: QueryCommandOutput) => void,
): Promise<void> {
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({ ...input, TableName: tableName(), ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    onPage(out);
    start = out.LastEvaluatedKey;
  } while (start);
}

/**
 * One page of a partition (`pk = partition AND begins_with(sk, prefix)`), or of GSI1 when
 * `index` is set. Items are mapped by `map`; newest first when `newestFirst`.
 */
export async function queryPage<T>(options: {
  partition: string;
  prefix?: string;
  index?: "gsi1";
  limit: number;
  cursor?: string;
  newestFirst?: boolean;
  map: (item: Record<string, unknown>) => T;
}): Promise<Page<T>> {
  const pkAttr = options.index ? "gsi1pk" : "pk";
  const skAttr = options.index ? "gsi1sk" : "sk";
  const input: QueryCommandInput = {
    TableName: tableName(),
    KeyConditionExpression: options.prefix ? "#pk = :pk AND begins_with(#sk, :prefix)" : "#pk = :pk",
    ExpressionAttributeNames: options.prefix ? { "#pk": pkAttr, "#sk": skAttr } : { "#pk": pkAttr },
    ExpressionAttributeValues: options.prefix
      ? { ":pk": options.partition, ":prefix": options.prefix }
      : { ":pk": options.partition },
    Limit: options.limit,
    ScanIndexForward: !options.newestFirst,
  };
  if (options.index) input.IndexName = GSI1;
  if (options.cursor) {
    input.ExclusiveStartKey = decodeCursor(options.cursor, {
      pkAttr,
      skAttr,
      partition: options.partition,
      prefix: options.prefix,
    });
  }
  const out = await db().send(new QueryCommand(input));
  return { items: (out.Items ?? []).map(options.map), nextCursor: encodeCursor(out.LastEvaluatedKey) };
}
