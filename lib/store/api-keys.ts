import { DeleteCommand, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import type { Plan } from "../config";
import { type AuditEntryInput, auditNamed } from "./audit-log";
import { countOn, insertCounted } from "./counted";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import { queryAll } from "./pagination";
import type { Permission, Role } from "./shapes";
import { GSI1 } from "./table-definition";
import { sleep, type TransactItem, transact, transactWithRetry } from "./transactions";

export interface ApiKey {
  id: string;
  orgId: string;
  /** SHA-256 (hex) of the secret; the secret itself is never stored. */
  keyHash: string;
  /** A copy of the organization's plan, kept in step by lib/admin.ts `changePlan`. */
  plan: Plan;
  name: string;
  keyPrefix: string;
  permissions: Permission[];
  /** A per-key limit below the plan's (requests per minute), or null to follow the plan. */
  customRateLimit: number | null;
  expiresAt: string | null;
  revokedAt: string | null;
  createdBy: { userId: string; name: string; email: string };
  /**
   * The creator's role in the organization now, kept in step by every role change and removal
   * (lib/accounts.ts), so authentication intersects the key's permissions with what its creator
   * may do without reading the member. `null`: the creator left, the key is orphaned. Absent on
   * keys stored before this field existed (authentication fills it in on first use).
   */
  creatorRole?: Role | null;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
}

const toApiKey = (item: Record<string, unknown>): ApiKey => {
  return fromItem<ApiKey>(item);
};

const apiKeyItem = (key: ApiKey) => ({
  ...keys.apiKey(key.id),
  ...keys.apiKeyIndex(key.orgId, key.createdAt, key.id),
  type: "apiKey",
  ...key,
});

/** The key by id, strongly consistent (a revocation is seen by the very next request). */
export async function getApiKey(keyId: string): Promise<ApiKey | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(keyId), ConsistentRead: true }));
  return out.Item ? toApiKey(out.Item) : undefined;
}

/** Every key of the organization, newest first (GSI1; at most 25, so one page in practice). */
export async function listApiKeys(orgId: string): Promise<ApiKey[]> {
  const items = await queryAll({
    IndexName: GSI1,
    KeyConditionExpression: "gsi1pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.apiKeyIndexPartition(orgId) },
    ScanIndexForward: false,
  });
  return items.map(toApiKey);
}

/** The organization's count of its keys, on its META item. */
const API_KEY_COUNTER = "apiKeyCount";

/** "CONFLICT": the creator's role changed since it was copied onto the key. */
export type InsertOutcome = Outcome<"OK" | "LIMIT_REACHED" | "PARENT_NOT_FOUND" | "CONFLICT"> | { planChanged: Plan };

/**
 * Stores a new key and counts it on the organization's META item in one transaction, so the
 * limit holds under concurrent creates; the transaction also checks the creator's role. Then the
 * organization's plan is read (strongly consistent): if it is no longer the one copied onto the
 * key, a plan change landed meanwhile, and the key is taken back (deleted and uncounted) for the
 * caller to try again with the new plan. The plan is not a condition of the count's update:
 * that would name `plan` in a write of the organization, which IAM could then not tell from
 * setting it (docs/deployment.md, "Least privilege"). A plan change that lands after the read
 * finds the key counted, and copies the new plan onto it (setApiKeysPlan).
 */
export async function insertApiKey(key: ApiKey, maxKeys: number, audit?: AuditEntryInput): Promise<InsertOutcome> {
  const organization = keys.organization(key.orgId);
  const outcome = await insertCounted({
    item: apiKeyItem(key),
    parent: organization,
    counter: API_KEY_COUNTER,
    max: maxKeys,
    ...(audit ? { audit } : {}),
    // The creator's role copied onto the key must still be theirs: a key created while its creator
    // is being demoted or removed cannot keep the old role.
    ...(key.creatorRole
      ? {
          check: {
            key: keys.member(key.orgId, key.createdBy.userId),
            expression: "#role = :role",
            names: { "#role": "role" },
            values: { ":role": key.creatorRole },
          },
        }
      : {}),
  });
  if (!outcome.inserted) {
    if (outcome.checkFailed) return "CONFLICT";
    const org = outcome.parent as { apiKeyCount?: number } | undefined;
    if (!org) return "PARENT_NOT_FOUND";
    if ((org.apiKeyCount ?? 0) >= maxKeys) return "LIMIT_REACHED";
    throw new Error("the API key insert was refused by no known condition");
  }
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: organization,
      ConsistentRead: true,
      ProjectionExpression: "#plan",
      ExpressionAttributeNames: { "#plan": "plan" },
    }),
  );
  const plan = out.Item?.plan as Plan | undefined;
  if (plan === key.plan) return "OK";
  if (!out.Item) {
    // The organization is gone: nothing to uncount.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.apiKey(key.id) }));
    return "PARENT_NOT_FOUND";
  }
  await transactWithRetry({
    TransactItems: [
      { Delete: { TableName: tableName(), Key: keys.apiKey(key.id), ConditionExpression: "attribute_exists(pk)" } },
      countOn(organization, API_KEY_COUNTER, -1),
    ],
  });
  return { planChanged: plan as Plan };
}

export interface ApiKeyChanges {
  name?: string;
  permissions?: Permission[];
  customRateLimit?: number | null;
}

/** Applies `changes` to the organization's key; undefined when there is no such key. */
export async function updateApiKey(
  orgId: string,
  keyId: string,
  changes: ApiKeyChanges,
  now: string,
): Promise<ApiKey | undefined> {
  const sets = ["updatedAt = :now"];
  const values: Record<string, unknown> = { ":now": now, ":org": orgId };
  const names: Record<string, string> = { "#orgId": "orgId" };
  for (const field of ["name", "permissions", "customRateLimit"] as const) {
    if (changes[field] === undefined) continue;
    sets.push(`#${field} = :${field}`);
    names[`#${field}`] = field;
    values[`:${field}`] = changes[field];
  }
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(keyId),
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: "attribute_exists(pk) AND #orgId = :org",
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: "ALL_NEW",
      }),
    );
    return out.Attributes ? toApiKey(out.Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Marks the organization's key revoked. Revoking a revoked key changes nothing. */
export async function revokeApiKey(
  orgId: string,
  keyId: string,
  now: string,
  audit?: AuditEntryInput,
): Promise<Outcome<"REVOKED" | "ALREADY_REVOKED" | "NOT_FOUND">> {
  // With its audit entry, the revocation is a transaction of two; the entry goes only with a key that was active.
  const cancelled = await transact([
    [
      "key",
      {
        Update: {
          TableName: tableName(),
          Key: keys.apiKey(keyId),
          UpdateExpression: "SET revokedAt = :now, updatedAt = :now",
          ConditionExpression: "orgId = :org AND attribute_type(revokedAt, :null)",
          ExpressionAttributeValues: { ":now": now, ":org": orgId, ":null": "NULL" },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
    ...auditNamed(audit),
  ]);
  if (!cancelled) return "REVOKED";
  if (!cancelled.refused("key")) throw cancelled.error;
  return cancelled.found("key")?.orgId === orgId ? "ALREADY_REVOKED" : "NOT_FOUND";
}

/**
 * Deletes a revoked key of the organization and frees its slot in one transaction.
 * "NOT_REVOKED" for an active key.
 */
export async function deleteRevokedApiKey(
  orgId: string,
  keyId: string,
  audit?: AuditEntryInput,
): Promise<Outcome<"DELETED" | "NOT_REVOKED" | "NOT_FOUND">> {
  const TableName = tableName();
  for (let attempt = 1; ; attempt++) {
    const cancelled = await transact([
      [
        "key",
        {
          Delete: {
            TableName,
            Key: keys.apiKey(keyId),
            ConditionExpression: "orgId = :org AND attribute_type(revokedAt, :string)",
            ExpressionAttributeValues: { ":org": orgId, ":string": "S" },
          },
        },
      ],
      ["organization", countOn(keys.organization(orgId), API_KEY_COUNTER, -1)],
      ...auditNamed(audit),
    ]);
    if (!cancelled) return "DELETED";
    const key = await getApiKey(keyId);
    if (!key || key.orgId !== orgId) return "NOT_FOUND";
    if (!key.revokedAt) return "NOT_REVOKED";
    // Revoked between the transaction and the read: try once more.
    if (attempt >= 2) throw cancelled.error;
  }
}

/**
 * Records a use of the key (called once per key per rate-limit window). Never recreates a
 * deleted key. On a read-only route this is one of the two bookkeeping writes IAM allows.
 */
export async function touchApiKey(keyId: string, now: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(keyId),
        UpdateExpression: "SET lastUsedAt = :now",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":now": now },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Copies the organization's new plan onto each of its keys. `expectedCount` is the
 * organization's apiKeyCount read (strongly) with the plan change: GSI1 is eventually
 * consistent, so a key created just before the change may not be listed yet; the query is
 * repeated a few times until every counted key has been seen. Keys created after the plan
 * change carry the new plan already (insertApiKey checks it).
 */
export async function setApiKeysPlan(orgId: string, plan: Plan, expectedCount: number): Promise<void> {
  const done = new Set<string>();
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt > 0) await sleep(100 * 2 ** attempt);
    const found = await listApiKeys(orgId);
    await Promise.all(
      found
        .filter((key) => !done.has(key.id))
        .map(async (key) => {
          try {
            await db().send(
              new UpdateCommand({
                TableName: tableName(),
                Key: keys.apiKey(key.id),
                UpdateExpression: "SET #plan = :plan",
                ConditionExpression: "attribute_exists(pk)",
                ExpressionAttributeNames: { "#plan": "plan" },
                ExpressionAttributeValues: { ":plan": plan },
              }),
            );
          } catch (error) {
            // Deleted meanwhile: nothing to update.
            if (!isConditionFailure(error)) throw error;
          }
          done.add(key.id);
        }),
    );
    if (found.length >= expectedCount) return;
  }
}

/** The organization's keys created by `userId` (GSI1, eventually consistent: see settleCreatorRole). */
export async function keysCreatedBy(orgId: string, userId: string): Promise<ApiKey[]> {
  return (await listApiKeys(orgId)).filter((key) => key.createdBy.userId === userId);
}

const creatorRoleUpdate = (keyId: string, role: Role | null) => ({
  TableName: tableName(),
  Key: keys.apiKey(keyId),
  UpdateExpression: "SET creatorRole = :role",
  // Never recreate a key deleted meanwhile as a stub.
  ConditionExpression: "attribute_exists(pk)",
  ExpressionAttributeValues: { ":role": role },
});

/** Transaction items that write the creator's new role (null: left) onto each of `keyIds`. */
export const creatorRoleUpdates = (keyIds: string[], role: Role | null): TransactItem[] =>
  keyIds.map((keyId) => ({ Update: creatorRoleUpdate(keyId, role) }));

/** Writes the creator's role onto one key (one the index listed late, see settleCreatorRole). */
export async function setCreatorRole(keyId: string, role: Role | null): Promise<Outcome<"OK" | "NOT_FOUND">> {
  try {
    await db().send(new UpdateCommand(creatorRoleUpdate(keyId, role)));
    return "OK";
  } catch (error) {
    if (isConditionFailure(error)) return "NOT_FOUND";
    throw error;
  }
}

/**
 * After a role change or removal was written together with the keys GSI1 listed, catches the
 * keys it did not list yet: a key created a moment before is in the table but maybe not yet in
 * the index. The organization's strongly read apiKeyCount says how many keys there are; the
 * index is read again (as setApiKeysPlan does) until it lists that many.
 */
export async function settleCreatorRole(
  orgId: string,
  userId: string,
  role: Role | null,
  written: ReadonlySet<string>,
  expectedCount: number,
): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await listApiKeys(orgId);
    const missed = found.filter((key) => key.createdBy.userId === userId && !written.has(key.id) && key.creatorRole !== role);
    await Promise.all(missed.map((key) => setCreatorRole(key.id, role)));
    if (found.length >= expectedCount) return;
    await sleep(100 * 2 ** attempt);
  }
}
