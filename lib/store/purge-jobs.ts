import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { deleteKeys } from "./batch";
import { type Key, keys } from "./keys";
import { formCountsTombstone } from "./submission-counts";
import { GSI1 } from "./table-definition";

/**
 * The purge job item (docs/data-model.md, "Background purge"): written in the same transaction as the
 * deletion that needs it (a form's, or a webhook's with its form), picked up from the stream by
 * the consumer (lib/purge.ts), which deletes the form's submissions pass by pass.
 */
export function purgeJobItem(job: { formId: string; orgId: string; siteId: string; reason: string; now: string }) {
  return {
    ...keys.purgeJob(job.formId),
    type: "purge",
    formId: job.formId,
    orgId: job.orgId,
    siteId: job.siteId,
    reason: job.reason,
    passes: 0,
    deleted: 0,
    createdAt: job.now,
  };
}

/**
 * Deletes up to `limit` of a form's submissions (one pass's worth): their keys by GSI1 (keys
 * only), then BatchWriteItem deletes. Answers how many it deleted; 0 when none is left.
 */
export async function deleteSubmissionsOfForm(formId: string, limit: number): Promise<number> {
  const page = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.submissionIndexPartition(formId) },
      ProjectionExpression: "pk, sk",
      Limit: limit,
    }),
  );
  const found: Key[] = (page.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
  await deleteKeys(found);
  return found.length;
}

/** Counts a finished pass on the job item, whose MODIFY event queues the next pass; a job already gone is fine. */
export async function countPurgePass(formId: string, deleted: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.purgeJob(formId),
        UpdateExpression: "ADD passes :one, deleted :n",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":one": 1, ":n": deleted },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Deletes the form's partition (the form and what hangs off it: outbound endpoints and their
 * count), turns its counts into a tombstone (a stream record of its submissions still on its way
 * to the bookkeeper must not create them again: lib/store/submission-counts.ts), then deletes
 * the job: in that order, so a pass that dies here simply repeats.
 */
export async function deleteFormPartitionAndJob(formId: string, now: string): Promise<void> {
  const formKey = keys.form(formId);
  const countsKey = keys.formCounts(formId);
  const partition = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": formKey.pk },
      ProjectionExpression: "pk, sk",
    }),
  );
  const rest = (partition.Items ?? [])
    .map((item) => ({ pk: String(item.pk), sk: String(item.sk) }))
    .filter((key) => key.sk !== countsKey.sk);
  await deleteKeys(rest.some((k) => k.sk === formKey.sk) ? rest : [...rest, formKey]);
  await db().send(new PutCommand(formCountsTombstone(formId, now)));
  // Its retention job (lib/retention-job.ts), finished or not: nothing is left to re-date.
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.retentionJob(formId) }));
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.purgeJob(formId) }));
}
