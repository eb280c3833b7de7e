import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { decodeCursor, encodeCursor } from "./cursor";
import { GSI1 } from "./table-definition";

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

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
  index?: typeof GSI1;
  limit: number;
  cursor?: string;
  newestFirst?: boolean;
  map: (item: Record<string, unknown>) => T;
}): Promise<Page<T>> {
  const pkAttr = options.index ? "gsi1pk" : "pk";
  const skAttr = options.index ? "gsi1sk" : "sk";
  const index = options.index !== undefined;
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
  if (index) input.IndexName = GSI1;
  if (options.cursor) {
    input.ExclusiveStartKey = decodeCursor(options.cursor, {
      index,
      partition: options.partition,
      ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
    });
  }
  const out = await db().send(new QueryCommand(input));
  return {
    items: (out.Items ?? []).map(options.map),
    nextCursor: out.LastEvaluatedKey ? encodeCursor(out.LastEvaluatedKey, index) : null,
  };
}
