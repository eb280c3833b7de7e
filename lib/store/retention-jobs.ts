import { QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditEntriesNamed } from "./audit-log";
import { type Retention, unexpiredFilter } from "./expiry";
import { FORM_NOT_PURGING, type Form, type FormChanges, type RetentionProgress, toForm } from "./forms";
import { keys } from "./keys";
import { unchangedUpdate } from "./optimistic";
import type { Outcome } from "./outcomes";
import type { JobStatus } from "./shapes";
import { GSI1 } from "./table-definition";
import { transact } from "./transactions";

/**
 * A form's retention job (docs/data-model.md, "Retention job"): written in the same transaction
 * as the retention change it applies (with the change's audit entry), carried by the table
 * stream to the consumer (infra/intake-filter.ts), which re-dates the form's submissions pass by
 * pass (lib/retention-job.ts). One item per form: a newer change replaces it, with a higher
 * `generation`, and the older job's next write is refused, so it stops. Its progress is mirrored
 * on the form item (`retentionJob`, the same transaction as each pass), so the form's view shows
 * it without another read.
 */

export interface RetentionJob {
  formId: string;
  orgId: string;
  /** The form's `updatedAt` of the change, as epoch ms: strictly higher for each later change of the form. */
  generation: number;
  /** The retention it applies. */
  retention: Retention;
  status: JobStatus;
  /** Submissions read, and those whose expiry it changed. */
  examined: number;
  updated: number;
  passes: number;
  /** The index key of the last submission examined (oldest first); null before the first. */
  cursor: Record<string, string> | null;
  startedAt: string;
  finishedAt: string | null;
}

export const retentionJobItem = (job: RetentionJob) => ({ ...keys.retentionJob(job.formId), type: "retention", ...job });

/** The job's progress as the form item holds it (`Form.retentionJob`). */
export const progressOf = (job: RetentionJob): RetentionProgress => ({
  generation: job.generation,
  status: job.status,
  examined: job.examined,
  updated: job.updated,
  startedAt: job.startedAt,
  finishedAt: job.finishedAt,
});

/**
 * Applies a form's changes, its retention among them, if the form still has the `updatedAt` the
 * caller read (lib/store/forms.ts, updateForm), and in the same transaction replaces its
 * retention job and records the audit entry: none of the three exists without the others. The
 * form as written, "CONFLICT" when it changed meanwhile, undefined when it is gone or purging.
 */
export async function updateFormRetention(
  current: Form,
  changes: FormChanges,
  updatedAt: string,
  job: RetentionJob,
  audit: readonly AuditEntryInput[],
): Promise<Form | Outcome<"CONFLICT"> | undefined> {
  const TableName = tableName();
  const cancelled = await transact([
    [
      "form",
      {
        Update: {
          ...unchangedUpdate({
            key: keys.form(current.id),
            changes: { ...changes, retentionJob: progressOf(job) },
            expectedUpdatedAt: current.updatedAt,
            updatedAt,
            condition: FORM_NOT_PURGING,
          }),
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
    // Replaces a running job: its next write finds a higher generation and stops.
    ["job", { Put: { TableName, Item: retentionJobItem(job) } }],
    ...auditEntriesNamed(audit, updatedAt),
  ]);
  if (!cancelled) return toForm({ ...current, ...changes, retentionJob: progressOf(job), updatedAt });
  if (!cancelled.refused("form")) throw cancelled.error;
  const old = cancelled.found("form");
  return old && old.deletedAt === null ? "CONFLICT" : undefined;
}

/** What a pass needs of a submission to re-date it. */
export interface DatedSubmission {
  id: string;
  createdAt: string;
  isSpam: boolean;
  ttl: number | undefined;
}

/**
 * The next `limit` submissions of a form after `cursor`, oldest first (its GSI1 partition, only
 * what a re-dating needs projected), and the index key of the last one (null: none).
 */
export async function datedSubmissionsAfter(
  formId: string,
  cursor: Record<string, string> | null,
  limit: number,
): Promise<{ items: DatedSubmission[]; last: Record<string, string> | null }> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.submissionIndexPartition(formId) },
      ExpressionAttributeNames: { "#ttl": "ttl" },
      ProjectionExpression: "pk, sk, gsi1pk, gsi1sk, id, createdAt, isSpam, #ttl",
      ScanIndexForward: true,
      Limit: limit,
      ...(cursor ? { ExclusiveStartKey: cursor } : {}),
    }),
  );
  const found = out.Items ?? [];
  const lastItem = found.at(-1);
  return {
    items: found.map((item) => ({
      id: String(item.id),
      createdAt: String(item.createdAt),
      isSpam: item.isSpam === true,
      ttl: typeof item.ttl === "number" ? item.ttl : undefined,
    })),
    last: lastItem
      ? { pk: String(lastItem.pk), sk: String(lastItem.sk), gsi1pk: String(lastItem.gsi1pk), gsi1sk: String(lastItem.gsi1sk) }
      : null,
  };
}

/**
 * Sets a submission's `ttl` (or removes it: kept forever) for the state it was read in, if it is
 * still there, still in that state, not expired, and no newer job has re-dated it (`retentionGeneration`).
 * False when a condition refused it: deleted or expired, moderated meanwhile (the moderation set
 * its own expiry), or a newer change's job got there first.
 */
export async function redateSubmission(
  submission: DatedSubmission,
  ttl: number | undefined,
  generation: number,
): Promise<boolean> {
  const live = unexpiredFilter();
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.submission(submission.id),
        UpdateExpression:
          ttl === undefined ? "SET retentionGeneration = :gen REMOVE #ttl" : "SET #ttl = :ttl, retentionGeneration = :gen",
        // An expired submission stays expired: it is gone for every reader already.
        ConditionExpression: `attribute_exists(pk) AND isSpam = :isSpam AND (attribute_not_exists(retentionGeneration) OR retentionGeneration <= :gen) AND ${live.expression}`,
        ExpressionAttributeNames: { ...live.names },
        ExpressionAttributeValues: {
          ":gen": generation,
          ":isSpam": submission.isSpam,
          ...live.values,
          ...(ttl === undefined ? {} : { ":ttl": ttl }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Records a pass on the job and its progress on the form, in one transaction, if it is still the
 * form's current job (its generation): a running job's item changes, so its MODIFY on the stream
 * queues the next pass; a finished one's passes no filter and ends there. False when a newer
 * change replaced the job, or the form is gone.
 */
export async function recordRetentionPass(
  job: RetentionJob,
  pass: { examined: number; updated: number; cursor: Record<string, string> | null; finishedAt: string | null },
): Promise<boolean> {
  const TableName = tableName();
  const next: RetentionJob = {
    ...job,
    status: pass.finishedAt ? "finished" : "running",
    examined: job.examined + pass.examined,
    updated: job.updated + pass.updated,
    passes: job.passes + 1,
    cursor: pass.cursor,
    finishedAt: pass.finishedAt,
  };
  const cancelled = await transact([
    [
      "job",
      {
        Update: {
          TableName,
          Key: keys.retentionJob(job.formId),
          UpdateExpression:
            "SET #status = :status, #cursor = :cursor, finishedAt = :finishedAt, examined = :examined, updated = :updated, passes = :passes",
          // The pass it follows, exactly: a repeated pass (a redelivered message) adds nothing twice.
          ConditionExpression: "generation = :gen AND passes = :before",
          ExpressionAttributeNames: { "#status": "status", "#cursor": "cursor" },
          ExpressionAttributeValues: {
            ":status": next.status,
            ":cursor": next.cursor,
            ":finishedAt": next.finishedAt,
            ":examined": next.examined,
            ":updated": next.updated,
            ":passes": next.passes,
            ":before": job.passes,
            ":gen": job.generation,
          },
        },
      },
    ],
    [
      "form",
      {
        Update: {
          TableName,
          Key: keys.form(job.formId),
          UpdateExpression: "SET retentionJob = :progress",
          ConditionExpression: "attribute_exists(pk) AND retentionJob.generation = :gen",
          ExpressionAttributeValues: { ":progress": progressOf(next), ":gen": job.generation },
        },
      },
    ],
  ]);
  return cancelled === undefined;
}
