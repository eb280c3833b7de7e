import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { batchGet } from "./batch";
import { type EmailClaim, toEmailClaim, verifyClaimItem } from "./email-claims";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import type { Role } from "./shapes";
import { type TransactItem, transact } from "./transactions";

/** What an emailed link proves (EmailToken.purpose). */
export const EMAIL_LINK_PURPOSES = ["verify", "reclaim", "change"] as const;

/**
 * A single-use emailed link's item (the token itself is only in the email; this is keyed by its
 * hash). Password-reset links are items of the same kind (lib/store/credentials.ts).
 */
export interface EmailToken {
  /**
   * `verify` proves the account's own address; `reclaim` lets the address's owner take it from an
   * unverified account; `change` proves the new address an account asked to move to.
   */
  purpose: (typeof EMAIL_LINK_PURPOSES)[number];
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

export const emailTokenItem = (tokenHash: string, token: EmailToken) => ({
  ...keys.emailToken(tokenHash),
  type: "email-token",
  ...token,
  ttl: Math.floor(Date.parse(token.expiresAt) / 1000),
});

export async function putEmailToken(tokenHash: string, token: EmailToken): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: emailTokenItem(tokenHash, token) }));
}

/**
 * An emailed link's item by its token's hash, whatever its purpose (the caller checks it), and,
 * when `claimOf` is given, that address's claim, in one BatchGetItem.
 */
export async function getEmailLink(
  tokenHash: string,
  claimOf?: string,
): Promise<{ link: EmailToken | undefined; claim: EmailClaim | undefined }> {
  const [link, claim] = await batchGet([keys.emailToken(tokenHash), ...(claimOf !== undefined ? [keys.email(claimOf)] : [])]);
  return { link: link && fromItem<EmailToken>(link, "ttl"), claim: claim && toEmailClaim(claim) };
}

/**
 * The transaction item that uses a link up: deleted only while it exists, has not expired and,
 * with `purpose`, is of that purpose, so that it works once.
 */
export const useLinkItem = (tokenHash: string, now: string, purpose?: "reset"): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: keys.emailToken(tokenHash),
    ConditionExpression: `attribute_exists(pk)${purpose ? " AND purpose = :purpose" : ""} AND expiresAt > :now`,
    ExpressionAttributeValues: { ":now": now, ...(purpose ? { ":purpose": purpose } : {}) },
  },
});

/**
 * Uses a verification link, in one transaction: the link is deleted (so it works once, and only
 * before it expires), the member is marked verified (while it still has that address), and so is
 * the address's claim (while this account still holds it: a reclaim voids the old links).
 */
export async function useVerificationToken(
  tokenHash: string,
  token: EmailToken,
  now: string,
): Promise<Outcome<"OK" | "LINK_INVALID">> {
  const TableName = tableName();
  const cancelled = await transact([
    ["link", useLinkItem(tokenHash, now)],
    [
      "member",
      {
        Update: {
          TableName,
          Key: keys.member(token.orgId, token.userId),
          UpdateExpression: "SET emailVerifiedAt = if_not_exists(emailVerifiedAt, :now)",
          ConditionExpression: "attribute_exists(pk) AND email = :email",
          ExpressionAttributeValues: { ":now": now, ":email": token.email },
        },
      },
    ],
    ["claim", verifyClaimItem(token.email, token.userId, now)],
  ]);
  return cancelled ? "LINK_INVALID" : "OK";
}
