import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { sentEmailKeys } from "../../lib/store/derived-records";
import { keys } from "../../lib/store/keys";

/** Helpers of the retention tests (docs/privacy.md, "Retention"): items read and aged straight in the table. */

const DAY = 86_400;

/** A submission's expected `ttl` for `days` of retention (epoch seconds). */
export const ttlAfter = (createdAt: string, days: number) => Math.floor(Date.parse(createdAt) / 1000) + days * DAY;

/**
 * Makes a submission old: its `ttl` a minute in the past, as if its retention ran out (the tests
 * never sweep with a future clock: the stack's other items share the table).
 */
export const expireSubmission = (submissionId: string) => expireItem(keys.submission(submissionId));

/** Makes any item old: its `ttl` a minute in the past (a forward-only marker at its bound, say). */
export async function expireItem(key: { pk: string; sk: string }): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: "SET #ttl = :past",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#ttl": "ttl" },
      ExpressionAttributeValues: { ":past": Math.floor(Date.now() / 1000) - 60 },
    }),
  );
}

/** An item by key, strongly consistent (undefined: gone). */
export async function itemAt(key: { pk: string; sk: string }): Promise<Record<string, any> | undefined> {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
}

/** The emails recorded for a submission (their `MAIL#` keys, by its index). */
export const sentEmailKeysOf = async (submissionId: string) => (await sentEmailKeys(submissionId)).map((key) => key.pk);

/** The submission ids in one search partition of a form. */
export async function searchEntriesOf(formId: string, token: string): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.searchPartition(formId, token) },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((item) => String(item.submissionId));
}
