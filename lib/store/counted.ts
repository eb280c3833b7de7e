import { tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditNamed } from "./audit-log";
import type { Key } from "./keys";
import { type Named, transact } from "./transactions";

/**
 * Items counted on a parent item (a site's webhooks, an organization's API keys, a form's
 * outbound endpoints): the count lives on the parent and moves in the same transaction as the
 * item, so a limit holds under any concurrency (docs/data-model.md, "Limits").
 */

export interface CountedInsert {
  /** The new item; its key must be free. */
  item: Record<string, unknown>;
  /** The item the count lives on. */
  parent: Key;
  /** The counter attribute on the parent. */
  counter: string;
  /** The count must be below this before the insert. */
  max: number;
  /** The parent must exist (a site, an organization); false for a counter item made on first use. */
  parentMustExist?: boolean;
  /** More of the parent's condition, ANDed (e.g. the organization's plan), with its names and values. */
  require?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  /** Attributes set on the parent as well (e.g. a counter item's type). */
  setOnParent?: Record<string, unknown>;
  /** Another item's condition that must hold at the same moment (e.g. the creator's role), checked in the transaction. */
  check?: { key: Key; expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  /** The audit log's entry of the insert, written in the same transaction (lib/store/audit-log.ts). */
  audit?: AuditEntryInput;
}

/**
 * Puts `item` and adds one to the parent's counter in one transaction (conflicts retried, see
 * ./transactions.ts). When the parent's condition fails, answers the parent as it was
 * (undefined: there is none), so the caller can say which rule refused without another read.
 */
export async function insertCounted(
  input: CountedInsert,
): Promise<{ inserted: true } | { inserted: false; parent: Record<string, unknown> | undefined; checkFailed?: true }> {
  const conditions = ["(attribute_not_exists(#count) OR #count < :max)"];
  if (input.parentMustExist !== false) conditions.unshift("attribute_exists(pk)");
  if (input.require) conditions.push(`(${input.require.expression})`);
  const set = Object.keys(input.setOnParent ?? {});
  const setNames = Object.fromEntries(set.map((name, i) => [`#set${i}`, name]));
  const setValues = Object.fromEntries(set.map((name, i) => [`:set${i}`, input.setOnParent?.[name]]));
  const items: Named<"parent" | "item" | "check" | "audit">[] = [
    [
      "parent",
      {
        Update: {
          TableName: tableName(),
          Key: input.parent,
          UpdateExpression: `ADD #count :one${set.length > 0 ? ` SET ${set.map((_, i) => `#set${i} = :set${i}`).join(", ")}` : ""}`,
          ConditionExpression: conditions.join(" AND "),
          ExpressionAttributeNames: { "#count": input.counter, ...setNames, ...input.require?.names },
          ExpressionAttributeValues: { ":one": 1, ":max": input.max, ...setValues, ...input.require?.values },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
    ["item", { Put: { TableName: tableName(), Item: input.item, ConditionExpression: "attribute_not_exists(pk)" } }],
  ];
  if (input.check) {
    items.push([
      "check",
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: input.check.key,
          ConditionExpression: input.check.expression,
          ...(input.check.names ? { ExpressionAttributeNames: input.check.names } : {}),
          ...(input.check.values ? { ExpressionAttributeValues: input.check.values } : {}),
        },
      },
    ]);
  }
  items.push(...auditNamed(input.audit));
  const cancelled = await transact(items);
  if (!cancelled) return { inserted: true };
  if (cancelled.refused("parent")) return { inserted: false, parent: cancelled.found("parent") };
  if (cancelled.refused("check")) return { inserted: false, parent: undefined, checkFailed: true };
  throw cancelled.error;
}

/**
 * The transaction item that moves a parent's counter by `delta` (a deletion's -1 beside its
 * Delete), requiring the parent to exist unless it is a counter item made on first use.
 */
export function countOn(parent: Key, counter: string, delta: number, { parentMustExist = true } = {}) {
  return {
    Update: {
      TableName: tableName(),
      Key: parent,
      UpdateExpression: "ADD #count :delta",
      ...(parentMustExist ? { ConditionExpression: "attribute_exists(pk)" } : {}),
      ExpressionAttributeNames: { "#count": counter },
      ExpressionAttributeValues: { ":delta": delta },
    },
  };
}
