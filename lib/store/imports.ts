import { GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { conditionFailedItem, db, isConditionFailure, tableName } from "../aws/dynamodb";
import { AppError } from "../errors";
import { type AuditEntryInput, auditEntryItem } from "./audit-log";
import type { Retention } from "./expiry";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { JobStatus } from "./shapes";
import { type Submission, submissionItem } from "./submissions";
import { type Named, transact } from "./transactions";

/**
 * A form's import jobs (docs/data-model.md, "Import job"): written by the import route with the
 * form's lock and the audit entry, carried by the table stream to the consumer
 * (infra/intake-filter.ts), which stores the rows pass by pass (lib/import-job.ts). Each pass
 * records its progress on the job; that MODIFY queues the next pass; the last one finishes the
 * job and releases the lock in the same transaction.
 */

export interface ImportProblem {
  line: number;
  code: string;
  message: string;
}

/** A file's row as the import route normalized it (lib/imports/rows.ts) and stored it for the job (./import-files.ts). */
export interface ImportRow {
  line: number;
  /** The submission's id, derived from the form and the row's identity: the same row always gets the same id. */
  id: string;
  createdAt: string;
  data: Record<string, string>;
  /** The source service said the row is spam. */
  sourceSpam: boolean;
}

/** An imported submission's mark (the API's `imported`; null on every other submission). */
export interface ImportedMark {
  importId: string;
  source: string;
  line: number;
}

export interface ImportJob {
  id: string;
  formId: string;
  orgId: string;
  siteId: string;
  status: JobStatus;
  source: string;
  fileName: string | null;
  /** Data rows in the file. */
  rows: number;
  imported: number;
  duplicates: number;
  spam: number;
  skipped: number;
  /** The first problems by line (IMPORT_LIMITS.problems); `skipped` counts them all. */
  problems: ImportProblem[];
  createdBy: string;
  startedAt: string;
  finishedAt: string | null;
  /** Rows stored for the job (lib/store/import-files.ts) and the index of the next one to write. */
  total: number;
  cursor: number;
  passes: number;
  /** What each row needs from the form and site, read once by the route. */
  retention: Retention;
  referencePrefix: string;
}

/** How long a lock outlives a job that never finished (its rows are gone from the bucket after a day). */
export const IMPORT_LOCK_SECONDS = 24 * 3600;

export const importJobItem = (job: ImportJob) => ({ ...keys.importJob(job.formId, job.id), type: "import", ...job });

export const toImportJob = (item: Record<string, unknown>): ImportJob => fromItem<ImportJob>(item);

/**
 * Starts an import: its job, the form's lock (refused while another import of the form runs, or
 * until its lock expires) and the audit entry, in one transaction. 409 IMPORT_IN_PROGRESS when
 * the lock is held.
 */
export async function putImportJob(job: ImportJob, audit: AuditEntryInput, nowMs: number): Promise<void> {
  const TableName = tableName();
  const cancelled = await transact([
    [
      "lock",
      {
        Put: {
          TableName,
          Item: {
            ...keys.importLock(job.formId),
            type: "import_lock",
            importId: job.id,
            ttl: Math.floor(nowMs / 1000) + IMPORT_LOCK_SECONDS,
          },
          ConditionExpression: "attribute_not_exists(pk) OR #ttl < :now",
          ExpressionAttributeNames: { "#ttl": "ttl" },
          ExpressionAttributeValues: { ":now": Math.floor(nowMs / 1000) },
        },
      },
    ],
    ["job", { Put: { TableName, Item: importJobItem(job), ConditionExpression: "attribute_not_exists(pk)" } }],
    ["audit", auditEntryItem(audit)] as Named<"audit">,
  ]);
  if (!cancelled) return;
  if (cancelled.refused("lock"))
    throw new AppError("IMPORT_IN_PROGRESS", "An import of this form is running: wait for it to finish");
  throw cancelled.error;
}

export async function getImportJob(formId: string, importId: string): Promise<ImportJob | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.importJob(formId, importId) }));
  return out.Item ? toImportJob(out.Item) : undefined;
}

/** The form's newest imports (ids are time-ordered): one Query. */
export async function listImportJobs(formId: string, limit: number): Promise<ImportJob[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :jobs)",
      ExpressionAttributeValues: { ":pk": keys.importPartition(formId), ":jobs": keys.importJobPrefix() },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map(toImportJob);
}

/**
 * What a put of an imported row found: stored now, stored by this import already (a pass that
 * repeats), or another's; with the row's `ttl` as it now stands (what was written, or what the
 * earlier attempt wrote), so the pass can re-date it if the form's retention changed meanwhile.
 */
export interface PutOutcome {
  outcome: "stored" | "ours" | "duplicate";
  ttl: number | undefined;
}

/**
 * Puts an imported submission if its id is free (conditional put: ids derive from the row),
 * marked with the generation of the retention it was dated by (absent: the form's retention never
 * changed), as a retention job marks what it re-dates. A refusal is "ours" when this import stored
 * it already, a duplicate otherwise.
 */
export async function putImportedSubmission(
  submission: Submission,
  mark: ImportedMark,
  retentionGeneration: number | null,
): Promise<PutOutcome> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...submissionItem(submission),
          imported: mark,
          ...(retentionGeneration === null ? {} : { retentionGeneration }),
        },
        ConditionExpression: "attribute_not_exists(pk)",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return { outcome: "stored", ttl: submission.ttl };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const old = conditionFailedItem(error) as { imported?: ImportedMark; ttl?: unknown } | undefined;
    const ttl = typeof old?.ttl === "number" ? old.ttl : undefined;
    return { outcome: old?.imported?.importId === mark.importId ? "ours" : "duplicate", ttl };
  }
}

export interface PassRecord {
  imported: number;
  duplicates: number;
  spam: number;
  skipped: number;
  problems: ImportProblem[];
  cursor: number;
  finishedAt: string | null;
}

/**
 * Records a pass on the job, if no other attempt recorded it (`passes` is the one it follows): a
 * repeated pass adds nothing twice. The last pass finishes the job and releases the form's lock
 * in the same transaction. False when the pass was recorded already.
 */
export async function recordImportPass(job: ImportJob, pass: PassRecord): Promise<boolean> {
  const TableName = tableName();
  const cancelled = await transact([
    [
      "job",
      {
        Update: {
          TableName,
          Key: keys.importJob(job.formId, job.id),
          UpdateExpression:
            "SET #status = :status, #cursor = :cursor, finishedAt = :finishedAt, imported = :imported, duplicates = :duplicates, spam = :spam, skipped = :skipped, problems = :problems, passes = :passes",
          ConditionExpression: "passes = :before",
          ExpressionAttributeNames: { "#status": "status", "#cursor": "cursor" },
          ExpressionAttributeValues: {
            ":status": pass.finishedAt ? "finished" : "running",
            ":cursor": pass.cursor,
            ":finishedAt": pass.finishedAt,
            ":imported": job.imported + pass.imported,
            ":duplicates": job.duplicates + pass.duplicates,
            ":spam": job.spam + pass.spam,
            ":skipped": job.skipped + pass.skipped,
            ":problems": pass.problems,
            ":passes": job.passes + 1,
            ":before": job.passes,
          },
        },
      },
    ],
    ...(pass.finishedAt
      ? [
          [
            "lock",
            {
              Delete: {
                TableName,
                Key: keys.importLock(job.formId),
                ConditionExpression: "attribute_not_exists(pk) OR importId = :id",
                ExpressionAttributeValues: { ":id": job.id },
              },
            },
          ] as Named<"lock">,
        ]
      : []),
  ]);
  if (!cancelled) return true;
  if (cancelled.refused("job")) return false;
  throw cancelled.error;
}
