import { tableName } from "../aws/dynamodb";
import { claimAddress, type EmailToken, type TransactItem } from "./accounts";
import { keys } from "./keys";
import { transactOrReasons } from "./transactions";

/**
 * Moves an account to the new address a `change` link proved, in one transaction: the link is
 * consumed (single use, unexpired); the new address's claim is created, verified, while nobody
 * holds it or while `holder`, unverified, does (who is then marked as having lost it, as a reclaim
 * does); the member takes the address, verified, while it still has the one it asked from (a
 * second change or a reclaim in between voids the link); and the old address's claim is released
 * when the account still holds it (`releaseOld`; a reclaimed address is someone else's and stays).
 * "EMAIL_TAKEN": the new address was taken or verified since it was read; "GONE": the link or the
 * member changed meanwhile.
 */
export async function changeAddress(input: {
  tokenHash: string;
  link: EmailToken & { previousEmail: string };
  holder: { userId: string; orgId: string } | undefined;
  releaseOld: boolean;
  now: string;
}): Promise<"OK" | "EMAIL_TAKEN" | "GONE"> {
  const TableName = tableName();
  const { link, now } = input;
  const items: TransactItem[] = [
    ...claimAddress({ ...link, emailVerifiedAt: now }, input.holder, now),
    {
      Delete: {
        TableName,
        Key: keys.emailToken(input.tokenHash),
        ConditionExpression: "attribute_exists(pk) AND expiresAt > :now",
        ExpressionAttributeValues: { ":now": now },
      },
    },
    {
      Update: {
        TableName,
        Key: keys.member(link.orgId, link.userId),
        UpdateExpression: "SET email = :email, emailVerifiedAt = :now REMOVE emailLostAt",
        ConditionExpression: "attribute_exists(pk) AND email = :previous",
        ExpressionAttributeValues: { ":email": link.email, ":now": now, ":previous": link.previousEmail },
      },
    },
  ];
  if (input.releaseOld) {
    items.push({
      Delete: {
        TableName,
        Key: keys.email(link.previousEmail),
        ConditionExpression: "userId = :userId",
        ExpressionAttributeValues: { ":userId": link.userId },
      },
    });
  }
  const reasons = await transactOrReasons({ TransactItems: items });
  if (!reasons) return "OK";
  if (reasons[0] === "ConditionalCheckFailed") return "EMAIL_TAKEN";
  if (reasons.some((r) => r === "ConditionalCheckFailed")) return "GONE";
  throw new Error(`the address change was cancelled: ${reasons.join(", ")}`);
}
