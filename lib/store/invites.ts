import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { batchGet } from "./batch";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { Role } from "./shapes";
import type { TransactItem } from "./transactions";

/** An invitation to an organization, keyed by its token's hash; consumed by the signup it admits (./signup.ts). */
export interface Invite {
  orgId: string;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

export async function putInvite(tokenHash: string, invite: Invite): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.invite(tokenHash),
        type: "invite",
        ...invite,
        ttl: Math.floor(Date.parse(invite.expiresAt) / 1000),
      },
    }),
  );
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
