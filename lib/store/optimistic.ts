import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionFailedItem, db, isConditionFailure, tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditNamed } from "./audit-log";
import type { Key } from "./keys";
import type { Outcome } from "./outcomes";
import { transact } from "./transactions";

/** An optimistic update: what `updateIfUnchanged` checks and sets, and how it reads the answer. */
export interface UnchangedUpdate<T> {
  key: Key;
  changes: Record<string, unknown>;
  expectedUpdatedAt: string;
  updatedAt: string;
  condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  isConflict?: (current: Record<string, unknown>) => boolean;
  map: (item: Record<string, unknown>) => T;
  /**
   * The audit log's entry of the change, in the same transaction, and the item as the caller
   * read it (a transaction returns no item: the written one is `current` with the changes).
   */
  audit?: { entry: AuditEntryInput; current: Record<string, unknown> };
}

/** The UpdateItem of `updateIfUnchanged`, also one item of a transaction (a change written with other items). */
export function unchangedUpdate(options: Omit<UnchangedUpdate<unknown>, "map">) {
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
  };
}

/**
 * Sets `changes` on an item if it still has the `updatedAt` the caller's decision was based on
 * (optimistic concurrency: two editors never silently overwrite each other). Returns the item as
 * written, "CONFLICT" when it changed meanwhile (per `isConflict` on the item as it is), or
 * undefined when it is gone. `condition` adds to the check (e.g. "not being purged").
 */
export async function updateIfUnchanged<T>(options: UnchangedUpdate<T>): Promise<T | Outcome<"CONFLICT"> | undefined> {
  const update = { ...unchangedUpdate(options), ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const };
  const refusedBy = (current: Record<string, unknown> | undefined) => {
    if (!current) return undefined;
    return (options.isConflict ?? (() => true))(current) ? "CONFLICT" : undefined;
  };
  if (options.audit) {
    const cancelled = await transact([["item", { Update: update }], ...auditNamed(options.audit.entry)]);
    if (!cancelled) {
      const written = Object.fromEntries(Object.entries(options.changes).filter(([, value]) => value !== undefined));
      return options.map({ ...options.audit.current, ...written, updatedAt: options.updatedAt });
    }
    if (!cancelled.refused("item")) throw cancelled.error;
    return refusedBy(cancelled.found("item"));
  }
  try {
    const out = await db().send(new UpdateCommand({ ...update, ReturnValues: "ALL_NEW" }));
    return out.Attributes ? options.map(out.Attributes) : undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return refusedBy(conditionFailedItem(error));
  }
}
