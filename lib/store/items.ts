import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import type { Key } from "./keys";

/** The attributes every item has for the table's sake (its keys, its index keys, its type), never part of the entity. */
const TABLE_ATTRIBUTES = ["pk", "sk", "gsi1pk", "gsi1sk", "type"] as const;

/**
 * The entity an item holds: the item without the table's own attributes, and without `alsoDrop`
 * (bookkeeping kept on the item, such as its `ttl` or a counter, that is not the entity's).
 * The caller's type says what the rest is; the item was written by the same module.
 */
export function fromItem<T>(item: Record<string, unknown>, ...alsoDrop: readonly string[]): T {
  const rest: Record<string, unknown> = { ...item };
  for (const name of TABLE_ATTRIBUTES) delete rest[name];
  for (const name of alsoDrop) delete rest[name];
  return rest as T;
}

/** One item by key (GetItem, eventually consistent), as `fromItem` gives it, its `ttl` left out; undefined when absent. */
export async function getItem<T>(key: Key): Promise<T | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key }));
  return out.Item ? fromItem<T>(out.Item, "ttl") : undefined;
}
