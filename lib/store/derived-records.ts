import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { deleteKeys } from "./batch";
import { type Key, keys } from "./keys";
import { queryAll } from "./pagination";
import { GSI1 } from "./table-definition";

/**
 * What is kept about a submission beside it, deleted when it goes (lib/bookkeeping/follow-out.ts;
 * docs/data-model.md, "What follows a submission out"): the emails sent for it (`MAIL#`, found
 * by its index `SUB#<id>#MAILS`), its outbound deliveries (`DELIVERY#`, by their ids), and the
 * items of its own partition beside it: its notes and timeline entries (`SUB#<id>`, lib/store/notes.ts,
 * lib/store/timeline.ts).
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

/** The keys of the items in a submission's partition other than the submission itself (its notes and timeline), keys only. */
export async function submissionPartitionKeys(submissionId: string): Promise<Key[]> {
  const own = keys.submission(submissionId);
  const items = await queryAll({
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.submissionPartition(submissionId) },
    ProjectionExpression: "pk, sk",
  });
  return items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })).filter((key) => key.sk !== own.sk);
}

/**
 * Deletes the emails sent for `submissionIds` and the deliveries `deliveryIds` (BatchWriteItem;
 * deleting one already gone succeeds, so a repeated batch deletes nothing twice). Answers how
 * many emails it found.
 */
export async function deleteDerivedRecords(submissionIds: readonly string[], deliveryIds: readonly string[]): Promise<number> {
  const emails: Key[] = [];
  const beside: Key[] = [];
  for (let i = 0; i < submissionIds.length; i += PARALLEL_QUERIES) {
    const ids = submissionIds.slice(i, i + PARALLEL_QUERIES);
    const [found, partitions] = await Promise.all([
      Promise.all(ids.map(sentEmailKeys)),
      Promise.all(ids.map(submissionPartitionKeys)),
    ]);
    emails.push(...found.flat());
    beside.push(...partitions.flat());
  }
  await deleteKeys([...emails, ...deliveryIds.map((id) => keys.outboundDelivery(id)), ...beside]);
  return emails.length;
}
