import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { epochSeconds } from "../ids";
import { keys } from "./keys";

/**
 * The duplicate markers of the spam evidence (lib/spam/evidence.ts): one item per fingerprint of
 * (IP, data), living for the duplicate window. No data is kept, only the hash.
 */

/**
 * Whether a marker for `print` is live. Strongly consistent: a repeat seconds after the first
 * must see its marker. An expired marker that DynamoDB has not deleted yet counts as absent.
 */
export async function duplicateMarkerLive(print: string, now: number): Promise<boolean> {
  const marker = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.duplicate(print),
      ConsistentRead: true,
      ProjectionExpression: "#ttl",
      ExpressionAttributeNames: { "#ttl": "ttl" },
    }),
  );
  const ttl = marker.Item?.ttl;
  return typeof ttl === "number" && ttl > epochSeconds(now);
}

export async function putDuplicateMarker(print: string, now: number, windowSeconds: number): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.duplicate(print), type: "duplicate", ttl: epochSeconds(now) + windowSeconds },
    }),
  );
}

export async function deleteDuplicateMarker(print: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.duplicate(print) }));
}
