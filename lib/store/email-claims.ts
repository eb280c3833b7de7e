import { tableName } from "../aws/dynamodb";
import { batchGet } from "./batch";
import { fromItem } from "./items";
import { keys } from "./keys";
import { type Member, toMember } from "./members";
import { type Organization, toOrganization } from "./organizations";
import type { Named, TransactItem } from "./transactions";

/** One item per address: makes addresses unique and finds the account at login (docs/accounts.md). */
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

export const emailClaimItem = (
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

export const toEmailClaim = (item: Record<string, unknown>) => fromItem<EmailClaim>(item);

/** The address's claim (BatchGetItem, as the reads it is often asked beside); undefined when nobody holds it. */
export async function getEmailClaim(email: string): Promise<EmailClaim | undefined> {
  const [item] = await batchGet([keys.email(email)]);
  return item ? toEmailClaim(item) : undefined;
}

/** The address's claim and, when `orgId` is given, that organization, in one BatchGetItem (a reclaim asked from an invite). */
export async function getEmailClaimWithOrganization(
  email: string,
  orgId: string | undefined,
): Promise<{ claim: EmailClaim | undefined; organization: Organization | undefined }> {
  const [claim, organization] = await batchGet([keys.email(email), ...(orgId ? [keys.organization(orgId)] : [])]);
  return { claim: claim && toEmailClaim(claim), organization: organization && toOrganization(organization) };
}

/** A member and the claim of an address it asks to move to, in one BatchGetItem. */
export async function getMemberWithEmailClaim(
  orgId: string,
  userId: string,
  email: string,
): Promise<{ member: Member | undefined; claim: EmailClaim | undefined }> {
  const [member, claim] = await batchGet([keys.member(orgId, userId), keys.email(email)]);
  return { member: member && toMember(member), claim: claim && toEmailClaim(claim) };
}

/** The transaction item that marks the address's claim verified (kept if it was), while `userId` holds it. */
export const verifyClaimItem = (email: string, userId: string, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.email(email),
    UpdateExpression: "SET verifiedAt = if_not_exists(verifiedAt, :now)",
    ConditionExpression: "userId = :userId",
    ExpressionAttributeValues: { ":now": now, ":userId": userId },
  },
});

/**
 * The transaction items that give `owner.email` to an account: its claim (verified when the owner
 * is), put while nobody holds the address, or while `holder`, unverified, does: a proof beats a
 * claim (docs/accounts.md). The holder is marked as having lost the address, so its sessions show
 * it. A refused `claim` means another account holds the address; a refused `holder`, that the
 * holder changed its address or left since it was read.
 */
export function claimAddress(
  owner: Pick<Member, "email" | "userId" | "orgId" | "emailVerifiedAt">,
  holder: { userId: string; orgId: string } | undefined,
  now: string,
): Named<"claim" | "holder">[] {
  const TableName = tableName();
  const claim: Named<"claim"> = [
    "claim",
    {
      Put: {
        TableName,
        Item: emailClaimItem(owner.email, owner.userId, owner.orgId, owner.emailVerifiedAt, holder),
        ...(holder
          ? {
              ConditionExpression: "userId = :holder AND attribute_not_exists(verifiedAt)",
              ExpressionAttributeValues: { ":holder": holder.userId },
            }
          : { ConditionExpression: "attribute_not_exists(pk)" }),
      },
    },
  ];
  if (!holder) return [claim];
  return [
    claim,
    [
      "holder",
      {
        Update: {
          TableName,
          Key: keys.member(holder.orgId, holder.userId),
          UpdateExpression: "SET emailLostAt = :now",
          ConditionExpression: "attribute_exists(pk) AND email = :email",
          ExpressionAttributeValues: { ":now": now, ":email": owner.email },
        },
      },
    ],
  ];
}
