import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { AppError } from "../errors";
import { GSI1 } from "./table-definition";

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Cursor: the opaque base64url of the last evaluated key, checked to lie in the queried partition. */
function decodeCursor(cursor: string, partitionAttr: string, partition: string): Record<string, unknown> {
  try {
    const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Record<string, unknown>;
    const valid =
      key !== null &&
      typeof key === "object" &&
      key[partitionAttr] === partition &&
      Object.values(key).every((v) => typeof v === "string") &&
      Object.keys(key).length <= 4;
    if (valid) return key;
  } catch {
    // fall through to the error below
  }
  throw new AppError("INVALID_CURSOR", "The cursor is not valid for this list");
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
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({ ...input, TableName: tableName(), ...(start ? { ExclusiveStartKey: start } : {}) }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
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
  if (options.cursor) input.ExclusiveStartKey = decodeCursor(options.cursor, pkAttr, options.partition);
  const out = await db().send(new QueryCommand(input));
  return { items: (out.Items ?? []).map(options.map), nextCursor: encodeCursor(out.LastEvaluatedKey) };
}
