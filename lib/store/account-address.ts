import { tableName } from "../aws/dynamodb";
import { claimAddress } from "./email-claims";
import { type EmailToken, useLinkItem } from "./email-links";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import { type Named, transact } from "./transactions";

/**
 * Moves an account to the new address a `change` link proved, in one transaction: the link is
 * consumed (single use, unexpired); the new address's claim is created, verified, while nobody
 * holds it or while `holder`, unverified, does (who is then marked as having lost it, as a reclaim
 * does); the member takes the address, verified, while it still has the one it asked from (a
 * second change or a reclaim in between voids the link); and the old address's claim is released
 * when the account still holds it (`releaseOld`; a reclaimed address is someone else's and stays).
 * "EMAIL_TAKEN": the new address was taken or verified since it was read; "LINK_INVALID": the link,
 * the member or the new address's unverified holder changed meanwhile.
 */
export async function changeAddress(input: {
  tokenHash: string;
  link: EmailToken & { previousEmail: string };
  holder: { userId: string; orgId: string } | undefined;
  releaseOld: boolean;
  now: string;
}): Promise<Outcome<"OK" | "EMAIL_TAKEN" | "LINK_INVALID">> {
  const TableName = tableName();
  const { link, now } = input;
  const items: Named<"claim" | "holder" | "link" | "member" | "previous">[] = [
    ...claimAddress({ ...link, emailVerifiedAt: now }, input.holder, now),
    ["link", useLinkItem(input.tokenHash, now)],
    [
      "member",
      {
        Update: {
          TableName,
          Key: keys.member(link.orgId, link.userId),
          UpdateExpression: "SET email = :email, emailVerifiedAt = :now REMOVE emailLostAt",
          ConditionExpression: "attribute_exists(pk) AND email = :previous",
          ExpressionAttributeValues: { ":email": link.email, ":now": now, ":previous": link.previousEmail },
        },
      },
    ],
  ];
  if (input.releaseOld) {
    items.push([
      "previous",
      {
        Delete: {
          TableName,
          Key: keys.email(link.previousEmail),
          ConditionExpression: "userId = :userId",
          ExpressionAttributeValues: { ":userId": link.userId },
        },
      },
    ]);
  }
  const cancelled = await transact(items);
  if (!cancelled) return "OK";
  return cancelled.refused("claim") ? "EMAIL_TAKEN" : "LINK_INVALID";
}
