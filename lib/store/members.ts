import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditNamed } from "./audit-log";
import { batchGet } from "./batch";
import { fromItem } from "./items";
import { keys } from "./keys";
import { type Organization, toOrganization } from "./organizations";
import type { Outcome } from "./outcomes";
import { queryPage } from "./pagination";
import type { Role } from "./shapes";
import { type TransactItem, transact } from "./transactions";

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

export const memberItem = (member: Member) => ({ ...keys.member(member.orgId, member.userId), type: "member", ...member });

export const toMember = (item: Record<string, unknown>) => fromItem<Member>(item);

/** A member by id (BatchGetItem, as the reads it is often asked beside). */
export async function getMember(orgId: string, userId: string): Promise<Member | undefined> {
  const [item] = await batchGet([keys.member(orgId, userId)]);
  return item ? toMember(item) : undefined;
}

/** A member and its organization, in one BatchGetItem (a session's or a login's account). */
export async function getMemberWithOrganization(
  orgId: string,
  userId: string,
): Promise<{ member: Member | undefined; organization: Organization | undefined }> {
  const [member, organization] = await batchGet([keys.member(orgId, userId), keys.organization(orgId)]);
  return { member: member && toMember(member), organization: organization && toOrganization(organization) };
}

/** The organization's members, a page at a time (`pk = ORG#<orgId> AND begins_with(sk, USER#)`). */
export const listMembers = (orgId: string, limit: number, cursor?: string) =>
  queryPage({
    partition: keys.organization(orgId).pk,
    prefix: keys.memberPrefix(),
    limit,
    ...(cursor ? { cursor } : {}),
    map: toMember,
  });

/**
 * Changes a member's role, unless the member is the owner, together with `alongside` (the role
 * copied onto the member's API keys) in one transaction. "CONFLICT" when one of those keys was
 * deleted meanwhile (the caller lists them again).
 */
export async function updateMemberRole(
  orgId: string,
  userId: string,
  role: Role,
  alongside: TransactItem[],
  audit?: AuditEntryInput,
): Promise<Outcome<"OK" | "OWNER" | "NOT_FOUND" | "CONFLICT">> {
  const cancelled = await transact([
    [
      "member",
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
    ],
    ...alongside.map((item) => ["key", item] as const),
    ...auditNamed(audit),
  ]);
  if (!cancelled) return "OK";
  if (cancelled.refused("member")) return cancelled.found("member") ? "OWNER" : "NOT_FOUND";
  return "CONFLICT";
}

/**
 * Removes a member and frees their email, unless the member is the owner, together with
 * `alongside` (their API keys marked orphaned) in one transaction. "CONFLICT" when one of those
 * keys was deleted meanwhile.
 */
export async function removeMember(
  member: Member,
  alongside: TransactItem[],
  freeEmail = true,
  audit?: AuditEntryInput,
): Promise<Outcome<"OK" | "OWNER" | "NOT_FOUND" | "CONFLICT">> {
  const TableName = tableName();
  const cancelled = await transact([
    [
      "member",
      {
        Delete: {
          TableName,
          Key: keys.member(member.orgId, member.userId),
          ConditionExpression: "attribute_exists(pk) AND #role <> :owner",
          ExpressionAttributeNames: { "#role": "role" },
          ExpressionAttributeValues: { ":owner": "owner" },
        },
      },
    ],
    // The address is freed only while it is this member's (a reclaim may have given it to another).
    ...(freeEmail
      ? [
          [
            "claim",
            {
              Delete: {
                TableName,
                Key: keys.email(member.email),
                ConditionExpression: "userId = :userId",
                ExpressionAttributeValues: { ":userId": member.userId },
              },
            },
          ] as const,
        ]
      : []),
    ...alongside.map((item) => ["key", item] as const),
    ...auditNamed(audit),
  ]);
  if (!cancelled) return "OK";
  if (cancelled.refused("member") || cancelled.refused("claim")) return member.role === "owner" ? "OWNER" : "NOT_FOUND";
  return "CONFLICT";
}

/** Sets the member's display name. */
export async function renameMember(orgId: string, userId: string, name: string): Promise<Outcome<"OK" | "NOT_FOUND">> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.member(orgId, userId),
        UpdateExpression: "SET #name = :name",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#name": "name" },
        ExpressionAttributeValues: { ":name": name },
      }),
    );
    return "OK";
  } catch (error) {
    if (isConditionFailure(error)) return "NOT_FOUND";
    throw error;
  }
}
