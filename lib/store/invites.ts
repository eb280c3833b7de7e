import { tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditEntryItem } from "./audit-log";
import { batchGet } from "./batch";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { Role } from "./shapes";
import { type TransactItem, transactWithRetry } from "./transactions";

/** An invitation to an organization, keyed by its token's hash; consumed by the signup it admits (./signup.ts). */
export interface Invite {
  orgId: string;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/** Stores the invite with its audit entry, in one transaction (a new token's hash: the invite's key is free). */
export async function putInvite(tokenHash: string, invite: Invite, audit: AuditEntryInput): Promise<void> {
  const item = {
    ...keys.invite(tokenHash),
    type: "invite",
    ...invite,
    ttl: Math.floor(Date.parse(invite.expiresAt) / 1000),
  };
  await transactWithRetry({ TransactItems: [{ Put: { TableName: tableName(), Item: item } }, auditEntryItem(audit)] });
}

/** The transaction item that uses the invite up (a signup): deleted only while it exists and has not expired. */
export const useInviteItem = (tokenHash: string, now: string): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: keys.invite(tokenHash),
    ConditionExpression: "attribute_exists(pk) AND expiresAt > :now",
    ExpressionAttributeValues: { ":now": now },
  },
});

/** The invite by its token's hash (BatchGetItem); the caller checks its expiry and address. */
export async function getInvite(tokenHash: string): Promise<Invite | undefined> {
  const [item] = await batchGet([keys.invite(tokenHash)]);
  return item ? fromItem<Invite>(item, "ttl") : undefined;
}
