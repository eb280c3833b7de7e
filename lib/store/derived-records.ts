import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { deleteKeys } from "./batch";
import { type Key, keys } from "./keys";
import { GSI1 } from "./table-definition";

/**
 * What is kept about a submission beside it, deleted when it goes (lib/bookkeeping/follow-out.ts;
 * docs/data-model.md, "What follows a submission out"): the emails sent for it (`MAIL#`, found
 * by its index `SUB#<id>#MAILS`) and its outbound deliveries (`DELIVERY#`, by their ids).
 */

/** Queries in flight at once when looking up the emails of a batch's submissions. */
const PARALLEL_QUERIES = 10;

/** The keys of the emails sent for a submission: a handful (its notification, its confirmation), one keys-only Query. */
export async function sentEmailKeys(submissionId: string): Promise<Key[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.sentEmailIndexPartition(submissionId) },
      ProjectionExpression: "pk, sk",
    }),
  );
  return (out.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
}

/**
 * Deletes the emails sent for `submissionIds` and the deliveries `deliveryIds` (BatchWriteItem;
 * deleting one already gone succeeds, so a repeated batch deletes nothing twice). Answers how
 * many emails it found.
 */
export async function deleteDerivedRecords(submissionIds: readonly string[], deliveryIds: readonly string[]): Promise<number> {
  const emails: Key[] = [];
  for (let i = 0; i < submissionIds.length; i += PARALLEL_QUERIES) {
    const found = await Promise.all(submissionIds.slice(i, i + PARALLEL_QUERIES).map(sentEmailKeys));
    emails.push(...found.flat());
  }
  await deleteKeys([...emails, ...deliveryIds.map((id) => keys.outboundDelivery(id))]);
  return emails.length;
}
