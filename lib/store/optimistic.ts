import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionFailedItem, db, isConditionFailure, tableName } from "../aws/dynamodb";
import type { Key } from "./keys";

export interface UnchangedUpdate<T> {
  key: Key;
  changes: Record<string, unknown>;
  expectedUpdatedAt: string;
  updatedAt: string;
  condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  isConflict?: (current: Record<string, unknown>) => boolean;
  map: (item: Record<string, unknown>) => T;
}

/** The UpdateItem of `updateIfUnchanged` (also one item of a transaction: ./optimistic-audited.ts). */
export function unchangedUpdate(options: UnchangedUpdate<unknown>) {
  const names: Record<string, string> = { "#updatedAt": "updatedAt", ...(options.condition?.names ?? {}) };
  const values: Record<string, unknown> = {
    ":updatedAt": options.updatedAt,
    ":expected": options.expectedUpdatedAt,
    ...(options.condition?.values ?? {}),
  };
  const sets = ["#updatedAt = :updatedAt"];
  for (const [field, value] of Object.entries(options.changes)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  const condition = ["attribute_exists(pk) AND #updatedAt = :expected", options.condition?.expression]
    .filter(Boolean)
    .join(" AND ");
  return {
    TableName: tableName(),
    Key: options.key,
    UpdateExpression: `SET ${sets.join(", ")}`,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
  };
}

/** What a refused update found: gone (undefined), or changed meanwhile ("CONFLICT", per `isConflict`). */
export function refusedUpdate(options: UnchangedUpdate<unknown>, current: Record<string, unknown> | undefined) {
  if (!current) return undefined;
  return (options.isConflict ?? (() => true))(current) ? ("CONFLICT" as const) : undefined;
}

/**
 * Sets `changes` on an item if it still has the `updatedAt` the caller's decision was based on
 * (optimistic concurrency: two editors never silently overwrite each other). Returns the item as
 * written, "CONFLICT" when it changed meanwhile (per `isConflict` on the item as it is), or
 * undefined when it is gone. `condition` adds to the check (e.g. "not being purged").
 */
export async function updateIfUnchanged<T>(options: UnchangedUpdate<T>): Promise<T | "CONFLICT" | undefined> {
  try {
    const out = await db().send(new UpdateCommand({ ...unchangedUpdate(options), ReturnValues: "ALL_NEW" }));
    return out.Attributes ? options.map(out.Attributes) : undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return refusedUpdate(options, conditionFailedItem(error));
  }
}
