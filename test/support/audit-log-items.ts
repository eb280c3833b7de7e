import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { keys } from "../../lib/store/keys";

/** An organization's audit entries of one action, oldest first, straight from the table. */
export async function auditItems(orgId: string, action: string): Promise<Record<string, any>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.auditPartition(orgId) },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).filter((item) => item.action === action);
}
