import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { keys } from "../../lib/store/keys";

/** Every item of a submission's partition (the submission, its notes, its timeline), straight from the table. */
export async function submissionPartitionItems(submissionId: string): Promise<Record<string, any>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.submissionPartition(submissionId) },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}
