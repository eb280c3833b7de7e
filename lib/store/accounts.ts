import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { cancellationReasons, db, isConditionFailure, tableName } from "../aws/dynamodb";
import type { Plan } from "../config";
import { batchGet } from "./batch";
import { fromItem } from "./items";
import { type Key, keys } from "./keys";
import type { Role } from "./shapes";
import { transactOrReasons } from "./transactions";

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  createdAt: string;
  updatedAt: string;
  /** API keys held, revoked ones included (lib/store/api-keys.ts keeps it; absent until the first). */
  apiKeyCount?: number;
}

export interface Member {
  userId: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  passwordHash: string;
  platformAdmin?: boolean;
  /** When the member proved the address (an emailed link); absent while unverified. */
  emailVerifiedAt?: string;
  /**
   * The generation of the member's sessions (absent: 0). A session is valid only while its own
   * `epoch` equals it, so a password change, a reset or "sign out everywhere else" ends every
   * other session with one write here (lib/store/credentials.ts, docs/accounts.md).
   */
  sessionEpoch?: number;
  /**
   * When the address's owner took it back (a reclaim, docs/accounts.md): the account holds no
   * address since, until it changes to one of its own. `email` keeps the lost address.
   */
  emailLostAt?: string;
  createdAt: string;
}

export interface Session {
  userId: string;
  orgId: string;
  /** The member's sessionEpoch when the session was made (absent: 0). */
  epoch?: number;
  createdAt: string;
  expiresAt: string;
}

/** A single-use emailed link's item (the token itself is only in the email; this is keyed by its hash). */
export interface EmailToken {
  /**
   * `verify` proves the account's own address; `reclaim` lets the address's owner take it from an
   * unverified account; `change` proves the new address an account asked to move to.
   */
  purpose: "verify" | "reclaim" | "change";
  /** The address the link was sent to (`change`: the new address). */
  email: string;
  /** The account the link was issued for (`reclaim`: the unverified account holding the address). */
  userId: string;
  orgId: string;
  /** `verify`, `change`: the account's and organization's names as the email gave them. */
  accountName?: string;
  organizationName?: string;
  /** `change`: the address the account held when it asked; the change applies only while it still does. */
  previousEmail?: string;
  /** `reclaim` asked from an invite: the signup with this link joins that invite's organization. */
  invite?: EmailLinkInvite;
  createdAt: string;
  expiresAt: string;
}

export interface EmailLinkInvite {
  /** The invite's key (the SHA-256 of its token). */
  hash: string;
  organizationName: string;
  role: Role;
}

export interface EmailClaim {
  userId: string;
  orgId: string;
  /** Set when the holder verified the address; an unverified hold can be reclaimed (docs/accounts.md). */
  verifiedAt?: string;
  /**
   * The unverified account that held the address before its owner took it back (a reclaim, or an
   * address change onto it): that account may still sign in with the address and its own
   * password, to move to an address of its own (docs/accounts.md, "An account that lost its
   * address"). A verified claim cannot be taken again, so there is at most one.
   */
  formerHolder?: { userId: string; orgId: string };
}

export interface Invite {
  orgId: string;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

const strip = <T>(item: Record<string, unknown> | undefined): T | undefined => {
  if (!item) return undefined;
  return fromItem<T>(item, "ttl");
};

export const organizationItem = (org: Organization) => ({
  ...keys.organization(org.id),
  ...keys.organizationIndex(org.createdAt, org.id),
  type: "organization",
  ...org,
});

export const memberItem = (member: Member) => ({ ...keys.member(member.orgId, member.userId), type: "member", ...member });

export const emailItem = (
  email: string,
  userId: string,
  orgId: string,
  verifiedAt?: string,
  formerHolder?: { userId: string; orgId: string },
) => ({
  ...keys.email(email),
  type: "email",
  userId,
  orgId,
  ...(verifiedAt ? { verifiedAt } : {}),
  ...(formerHolder ? { formerHolder: { userId: formerHolder.userId, orgId: formerHolder.orgId } } : {}),
});

export const emailTokenItem = (tokenHash: string, token: EmailToken) => ({
  ...keys.emailToken(tokenHash),
  type: "email-token",
  ...token,
  ttl: Math.floor(Date.parse(token.expiresAt) / 1000),
});

export const sessionItem = (tokenHash: string, session: Session) => ({
  ...keys.session(tokenHash),
  type: "session",
  ...session,
  ttl: Math.floor(Date.parse(session.expiresAt) / 1000),
});

/**
 * Creates an account in one transaction: the email claim (unique), the member, the session,
 * and, for a new organization, the organization; for an invite, the invite is consumed.
 * Returns "EMAIL_TAKEN" or "INVITE_INVALID" when a condition fails.
 */
export async function createAccount(input: {
  member: Member;
  organization?: Organization;
  sessionHash: string;
  session: Session;
  inviteHash?: string;
  /** The verification link issued with the account. */
  verification?: { tokenHash: string; token: EmailToken };
  /**
   * A link that came to the address (a reclaim link, or the holder's own verification link): it
   * is consumed, and the address is taken from `holder`, the unverified account holding it when
   * it was read (undefined: nobody held it). The holder is marked as having lost it.
   */
  reclaim?: { tokenHash: string; token: EmailToken; holder?: { userId: string; orgId: string } };
  now: string;
}): Promise<"OK" | "EMAIL_TAKEN" | "INVITE_INVALID" | "RECLAIM_INVALID"> {
  const TableName = tableName();
  const { member, reclaim } = input;
  const items: TransactItem[] = [
    ...claimAddress(member, reclaim?.holder, input.now),
    { Put: { TableName, Item: memberItem(member) } },
    { Put: { TableName, Item: sessionItem(input.sessionHash, input.session) } },
  ];
  if (input.verification) {
    items.push({ Put: { TableName, Item: emailTokenItem(input.verification.tokenHash, input.verification.token) } });
  }
  if (input.organization) items.push({ Put: { TableName, Item: organizationItem(input.organization) } });
  const consumed = (Key: Key) => ({
    Delete: {
      TableName,
      Key,
      ConditionExpression: "attribute_exists(pk) AND expiresAt > :now",
      ExpressionAttributeValues: { ":now": input.now },
    },
  });
  if (reclaim) items.push(consumed(keys.emailToken(reclaim.tokenHash)));
  const inviteAt = input.inviteHash ? items.push(consumed(keys.invite(input.inviteHash))) - 1 : -1;
  const reasons = await transactOrReasons({ TransactItems: items });
  if (!reasons) return "OK";
  if (reasons[0] === "ConditionalCheckFailed") return "EMAIL_TAKEN";
  if (inviteAt >= 0 && reasons[inviteAt] === "ConditionalCheckFailed") return "INVITE_INVALID";
  // The link was used meanwhile, or the holder changed its address or left since it was read.
  if (reclaim && reasons.some((r) => r === "ConditionalCheckFailed")) return "RECLAIM_INVALID";
  throw new Error(`the signup was cancelled: ${reasons.join(", ")}`);
}

/**
 * The transaction items that give `owner.email` to an account: its claim (verified when the owner
 * is), put while nobody holds the address, or while `holder`, unverified, does: a proof beats a
 * claim (docs/accounts.md). The holder is marked as having lost the address, so its sessions show
 * it. The claim's put comes first, so a transaction's first cancellation reason is its.
 */
export function claimAddress(
  owner: Pick<Member, "email" | "userId" | "orgId" | "emailVerifiedAt">,
  holder: { userId: string; orgId: string } | undefined,
  now: string,
): TransactItem[] {
  const TableName = tableName();
  const put: TransactItem = {
    Put: {
      TableName,
      Item: emailItem(owner.email, owner.userId, owner.orgId, owner.emailVerifiedAt, holder),
      ...(holder
        ? {
            ConditionExpression: "userId = :holder AND attribute_not_exists(verifiedAt)",
            ExpressionAttributeValues: { ":holder": holder.userId },
          }
        : { ConditionExpression: "attribute_not_exists(pk)" }),
    },
  };
  if (!holder) return [put];
  return [
    put,
    {
      Update: {
        TableName,
        Key: keys.member(holder.orgId, holder.userId),
        UpdateExpression: "SET emailLostAt = :now",
        ConditionExpression: "attribute_exists(pk) AND email = :email",
        ExpressionAttributeValues: { ":now": now, ":email": owner.email },
      },
    },
  ];
}

/** Claims the deployment's first-platform-admin marker; true for the one caller that wins. */
export async function claimFirstPlatformAdmin(orgId: string, userId: string): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.firstPlatformAdmin(), type: "platform", userId, orgId },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.member(orgId, userId),
      UpdateExpression: "SET platformAdmin = :t",
      ExpressionAttributeValues: { ":t": true },
    }),
  );
  return true;
}

export async function getItem<T>(key: Key): Promise<T | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key }));
  return strip<T>(out.Item);
}

/** Reads several items in one BatchGetItem round trip, in the order asked (undefined where absent). */
export const getItems = (keyList: Key[]) => batchGet(keyList);

export const asOrganization = (item: Record<string, unknown> | undefined) => strip<Organization>(item);
export const asMember = (item: Record<string, unknown> | undefined) => strip<Member>(item);
export const asSession = (item: Record<string, unknown> | undefined) => strip<Session>(item);
export const asInvite = (item: Record<string, unknown> | undefined) => strip<Invite>(item);
export const asEmailClaim = (item: Record<string, unknown> | undefined) => strip<EmailClaim>(item);
export const asEmailToken = (item: Record<string, unknown> | undefined) => strip<EmailToken>(item);

export async function putEmailToken(tokenHash: string, token: EmailToken): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: emailTokenItem(tokenHash, token) }));
}

/**
 * Uses a verification link, in one transaction: the link is deleted (so it works once, and only
 * before it expires), the member is marked verified (while it still has that address), and so is
 * the address's claim (while this account still holds it: a reclaim voids the old links).
 */
export async function useVerificationToken(tokenHash: string, token: EmailToken, now: string): Promise<"OK" | "GONE"> {
  const TableName = tableName();
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName,
              Key: keys.emailToken(tokenHash),
              ConditionExpression: "attribute_exists(pk) AND expiresAt > :now",
              ExpressionAttributeValues: { ":now": now },
            },
          },
          {
            Update: {
              TableName,
              Key: keys.member(token.orgId, token.userId),
              UpdateExpression: "SET emailVerifiedAt = if_not_exists(emailVerifiedAt, :now)",
              ConditionExpression: "attribute_exists(pk) AND email = :email",
              ExpressionAttributeValues: { ":now": now, ":email": token.email },
            },
          },
          {
            Update: {
              TableName,
              Key: keys.email(token.email),
              UpdateExpression: "SET verifiedAt = if_not_exists(verifiedAt, :now)",
              ConditionExpression: "userId = :userId",
              ExpressionAttributeValues: { ":now": now, ":userId": token.userId },
            },
          },
        ],
      }),
    );
    return "OK";
  } catch (error) {
    if (cancellationReasons(error)) return "GONE";
    throw error;
  }
}

export async function putSession(tokenHash: string, session: Session): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: sessionItem(tokenHash, session) }));
}

export async function deleteSession(tokenHash: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.session(tokenHash) }));
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

/** Changes a member's role unless the member is the owner. Returns false when no such member. */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]>[number];

/**
 * Changes a member's role, unless the member is the owner, together with `alongside` (the role
 * copied onto the member's API keys) in one transaction. "GONE" when one of those keys was
 * deleted meanwhile (the caller lists them again).
 */
export async function updateMemberRole(
  orgId: string,
  userId: string,
  role: Role,
  alongside: TransactItem[],
): Promise<"OK" | "OWNER" | "NOT_FOUND" | "GONE"> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.member(orgId, userId),
              UpdateExpression: "SET #role = :role",
              ConditionExpression: "attribute_exists(pk) AND #role <> :owner",
              ExpressionAttributeNames: { "#role": "role" },
              ExpressionAttributeValues: { ":role": role, ":owner": "owner" },
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            },
          },
          ...alongside,
        ],
      }),
    );
    return "OK";
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) throw error;
    if (reasons[0] === "ConditionalCheckFailed") {
      const old = (error as { CancellationReasons?: { Item?: Record<string, unknown> }[] }).CancellationReasons?.[0]?.Item;
      return old ? "OWNER" : "NOT_FOUND";
    }
    if (reasons.some((r) => r === "ConditionalCheckFailed")) return "GONE";
    throw error;
  }
}

/**
 * Removes a member and frees their email, unless the member is the owner, together with
 * `alongside` (their API keys marked orphaned) in one transaction.
 */
export async function removeMember(
  member: Member,
  alongside: TransactItem[],
  freeEmail = true,
): Promise<"OK" | "OWNER" | "NOT_FOUND" | "GONE"> {
  const TableName = tableName();
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName,
              Key: keys.member(member.orgId, member.userId),
              ConditionExpression: "attribute_exists(pk) AND #role <> :owner",
              ExpressionAttributeNames: { "#role": "role" },
              ExpressionAttributeValues: { ":owner": "owner" },
            },
          },
          // The address is freed only while it is this member's (a reclaim may have given it to another).
          ...(freeEmail
            ? [
                {
                  Delete: {
                    TableName,
                    Key: keys.email(member.email),
                    ConditionExpression: "userId = :userId",
                    ExpressionAttributeValues: { ":userId": member.userId },
                  },
                },
              ]
            : []),
          ...alongside,
        ],
      }),
    );
    return "OK";
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) throw error;
    if (reasons[0] === "ConditionalCheckFailed" || (freeEmail && reasons[1] === "ConditionalCheckFailed")) {
      return member.role === "owner" ? "OWNER" : "NOT_FOUND";
    }
    if (reasons.some((r) => r === "ConditionalCheckFailed")) return "GONE";
    throw error;
  }
}

/**
 * Sets the organization's name or plan (a platform admin's change, or a rename); undefined when
 * it does not exist (any more). Sessions read the organization on every request, so the change
 * shows at once.
 */
export async function updateOrganization(
  orgId: string,
  changes: { name: string } | { plan: Plan },
  now: string,
): Promise<Organization | undefined> {
  const [field, value] = Object.entries(changes)[0] as [string, unknown];
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.organization(orgId),
        UpdateExpression: "SET #field = :value, updatedAt = :now",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#field": field },
        ExpressionAttributeValues: { ":value": value, ":now": now },
        ReturnValues: "ALL_NEW",
      }),
    );
    return strip<Organization>(out.Attributes);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
