import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { keys } from "./keys";

/**
 * Claims the deployment's first-platform-admin marker and marks the member platform admin: a
 * claim (./outcomes.ts), true for the one caller that wins it.
 */
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
