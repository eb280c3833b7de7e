import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { sha256Hex } from "../../lib/ids";
import { keys } from "../../lib/store/keys";

/** Ages an emailed link's stored item (verification, reclaim, reset) past its expiry, as time would. */
export async function expireEmailLink(token: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.emailToken(sha256Hex(token)),
      UpdateExpression: "SET expiresAt = :past",
      ExpressionAttributeValues: { ":past": new Date(Date.now() - 1000).toISOString() },
    }),
  );
}
