import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionFailedItem, db, isConditionFailure, tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditEntryItem, auditNamed } from "./audit-log";
import { batchGet } from "./batch";
import { isExpired, unexpiredFilter } from "./expiry";
import { allMatching, type FilteredQuery, filteredPage } from "./filtered-query";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import type { Lead, RawValue, SpamVerdict, SubmissionStatus } from "./shapes";
import { GSI1 } from "./table-definition";
import { transact, transactWithRetry } from "./transactions";

/**
 * Submissions (docs/data-model.md, "Submission"): the item, its reads and lists, the consumer's
 * lead, deletion and ownership. Intake's write with its repeat markers is ./intake-markers.ts;
 * moderation ./moderation.ts; the release marker ./releases.ts.
 */

export interface SubmissionMetadata {
  source: string;
  userAgent: string | null;
  referer: string | null;
  /** null once a forward-only form's submission is stripped (lib/store/forward-markers.ts). */
  ip: string | null;
  droppedFiles: string[];
  ignoredFields: string[];
  /** Advertising-platform system fields (spec 2.4), 64-bit ids as exact strings. */
  ads?: Record<string, string | boolean>;
  isTest?: boolean;
  replyTo?: string;
  /** The submitter's subject for the notification: one line, at most 200 characters. */
  subject?: string;
  /** The submitter's sender display name for the notification (web3forms' `from_name`), cleaned. */
  fromName?: string;
  /** Notification addresses of the form a carbon-copy field picked (`_cc`, `ccemail`): Cc instead of To. */
  cc?: string[];
  /** How many carbon-copy entries named no notification address of the form, and were ignored. */
  ccIgnored?: number;
}

export interface Submission {
  id: string;
  orgId: string;
  siteId: string;
  formId: string;
  webhookId: string;
  referenceId: string;
  data: Record<string, RawValue>;
  metadata: SubmissionMetadata;
  spam: SpamVerdict;
  createdAt: string;
  /**
   * When DynamoDB's TTL deletes it (epoch seconds): its arrival plus its form's retention for its
   * current state (lib/retention.ts); absent when that state is kept forever.
   */
  ttl?: number;
}

/** What a repeated request (same Idempotency-Key, same lead id) answers: the first result. */
export interface IntakeResult {
  submissionId: string;
  referenceId: string;
  fieldsMapped: string[];
}

export const submissionItem = (submission: Submission) => ({
  ...keys.submission(submission.id),
  ...keys.submissionIndex(submission.formId, submission.createdAt, submission.id),
  type: "submission",
  // Top level, so the stream filter can pass non-spam submissions to the queue.
  isSpam: submission.spam.isSpam,
  ...submission,
});

/** A submission as stored: `isSpam` is its current state (moderation may change it), `spam` the intake verdict. */
export interface StoredSubmission extends Submission {
  isSpam: boolean;
  /**
   * Set once, when a submission stored as spam is first unflagged: the same transaction puts the
   * release marker whose INSERT lets the submission enter the intake pipeline (setSpamState).
   */
  releasedAt?: string;
  /**
   * Lead qualification (docs/leads.md), stored by the intake consumer when it processes the
   * submission; absent until then, and for a submission the pipeline has not taken up.
   */
  lead?: Lead;
  /** A forward-only form's submission whose values were deleted (lib/outbound/forward-only.ts): when. */
  valuesDeletedAt?: string;
  /**
   * A forward-only form's submission: when its values are deleted at the latest (its bound, the
   * same as its marker's: lib/outbound/forward-only.ts). Set with its lead; past it, no reader
   * shows or sends its values, even before the strip has deleted them (./forward-markers.ts).
   */
  valuesKeptUntil?: string;
  /** Its triage (docs/triage.md; lib/store/triage.ts): each absent until first set (status `new`, no owner, no tags, no notes). */
  status?: SubmissionStatus;
  ownerId?: string;
  tags?: string[];
  /** When its status, owner or tags last changed: its `updatedAt` (the concurrency token of a change). */
  triagedAt?: string;
  noteCount?: number;
  /** Brought by an import (lib/import-job.ts): never notified, qualified or delivered. */
  imported?: { importId: string; source: string; line: number };
}

export const toSubmission = (item: Record<string, unknown>): StoredSubmission => {
  const rest = fromItem<Record<string, unknown>>(item);
  // Field keys come from submitted data: no prototype, so `__proto__` stays an ordinary key.
  const data = Object.assign(Object.create(null), rest.data ?? {}) as Submission["data"];
  return { ...(rest as unknown as StoredSubmission), data };
};

/** A stored submission, or undefined for none and for one whose TTL has passed (./expiry.ts: gone for every reader). */
const liveSubmission = (item: Record<string, unknown> | undefined) =>
  item && !isExpired(item.ttl) ? toSubmission(item) : undefined;

export async function getSubmission(submissionId: string): Promise<StoredSubmission | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.submission(submissionId) }));
  return liveSubmission(out.Item);
}

/** A strongly consistent read: the intake consumer must see a moderation that just happened. */
export async function getSubmissionConsistent(submissionId: string): Promise<StoredSubmission | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.submission(submissionId), ConsistentRead: true }),
  );
  return liveSubmission(out.Item);
}

export type SpamFilter = "true" | "false" | "all";

export interface SubmissionQuery {
  spam: SpamFilter;
  /** Sort key bounds on `<createdAt>#<id>`: `from` inclusive, `before` exclusive (ISO timestamps). */
  from?: string;
  before?: string;
  /** Evaluated in the function on each item the spam filter passed (search). */
  match?: (submission: StoredSubmission) => boolean;
}

function formQuery(formId: string, query: SubmissionQuery): FilteredQuery<StoredSubmission> {
  return {
    partition: keys.submissionIndexPartition(formId),
    range: { ...(query.from ? { from: query.from } : {}), ...(query.before ? { before: query.before } : {}) },
    newestFirst: true,
    // Expired submissions that DynamoDB has not deleted yet are left out (./expiry.ts).
    unexpired: true,
    ...(query.spam === "all"
      ? {}
      : {
          filter: {
            expression: "#isSpam = :isSpam",
            names: { "#isSpam": "isSpam" },
            values: { ":isSpam": query.spam === "true" },
          },
        }),
    ...(query.match
      ? { match: (item: Record<string, unknown>) => (query.match as (s: StoredSubmission) => boolean)(toSubmission(item)) }
      : {}),
    map: toSubmission,
  };
}

/** One page of a form's submissions, newest first (see lib/store/filtered-query.ts for short pages). */
export const listFormSubmissions = (
  formId: string,
  query: SubmissionQuery,
  limit: number,
  cursor: string | undefined,
  maxExamined: number,
) => filteredPage(formQuery(formId, query), { limit, ...(cursor ? { cursor } : {}), maxExamined });

/** Every matching submission of a form, newest first, a DynamoDB page at a time. */
export const everyFormSubmission = (formId: string, query: SubmissionQuery, cursor?: string) =>
  allMatching(formQuery(formId, query), cursor);

/**
 * Stores a submission's lead once: `if_not_exists` keeps the first result, so a redelivered
 * message (or a release racing the insert) never changes a lead already shown or sent. A lead is
 * first stored only while the submission is not spam; from then on the pipeline owns the
 * submission and finishes it whatever its later spam state. Answers the stored lead, or why
 * there is none: the submission is gone, or it is spam and was never taken up.
 */
export async function storeLeadOnce(
  submissionId: string,
  lead: Lead,
  /** A forward-only form's bound (StoredSubmission.valuesKeptUntil): set in the same write, the first one kept. */
  valuesKeptUntil?: string,
): Promise<Lead | Outcome<"NOT_FOUND" | "SPAM">> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.submission(submissionId),
        UpdateExpression: `SET #lead = if_not_exists(#lead, :lead)${valuesKeptUntil ? ", #until = if_not_exists(#until, :until)" : ""}`,
        ConditionExpression: "attribute_exists(pk) AND (attribute_exists(#lead) OR isSpam = :false)",
        ExpressionAttributeNames: { "#lead": "lead", ...(valuesKeptUntil ? { "#until": "valuesKeptUntil" } : {}) },
        ExpressionAttributeValues: { ":lead": lead, ":false": false, ...(valuesKeptUntil ? { ":until": valuesKeptUntil } : {}) },
        ReturnValues: "UPDATED_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return out.Attributes?.lead as Lead;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return conditionFailedItem(error) ? "SPAM" : "NOT_FOUND";
  }
}

/** Deletes one submission if it belongs to `orgId` ("NOT_FOUND": there is none, for that organization). */
export async function deleteSubmission(
  submissionId: string,
  orgId: string,
  audit: AuditEntryInput,
): Promise<Outcome<"OK" | "NOT_FOUND">> {
  const live = unexpiredFilter();
  // With its audit entry: a transaction of two; a foreign, absent or expired id cancels both
  // (an expired one is gone already, ./expiry.ts: 404, and its TTL deletes it).
  const cancelled = await transact([
    [
      "submission",
      {
        Delete: {
          TableName: tableName(),
          Key: keys.submission(submissionId),
          ConditionExpression: `attribute_exists(pk) AND orgId = :org AND ${live.expression}`,
          ExpressionAttributeNames: live.names,
          ExpressionAttributeValues: { ":org": orgId, ...live.values },
        },
      },
    ],
    ...auditNamed(audit),
  ]);
  if (!cancelled) return "OK";
  if (cancelled.refused("submission")) return "NOT_FOUND";
  throw cancelled.error;
}

/** Who owns each of `submissionIds` (BatchGetItem, 100 keys per call, only the owning ids projected). */
export async function submissionOwners(
  submissionIds: string[],
): Promise<Map<string, { orgId: string; siteId: string; formId: string }>> {
  const items = await batchGet(
    submissionIds.map((id) => keys.submission(id)),
    { projection: "id, orgId, siteId, formId, #ttl", names: { "#ttl": "ttl" } },
  );
  const owners = new Map<string, { orgId: string; siteId: string; formId: string }>();
  for (const item of items) {
    // An expired submission has no owner any more: it is gone (./expiry.ts).
    if (item && !isExpired(item.ttl))
      owners.set(String(item.id), { orgId: String(item.orgId), siteId: String(item.siteId), formId: String(item.formId) });
  }
  return owners;
}

/** Deletes per transaction beside their audit entry: TransactWriteItems holds at most 100 items. */
export const AUDITED_DELETE_CHUNK = 99;

/**
 * Deletes submissions by id (ids the caller found to be the organization's) with the audit log's
 * entry of each transaction: up to 99 deletes and their entry (`entry(chunk)`: the ids it
 * deletes) per TransactWriteItems, so no submission goes without an entry and no entry without
 * its deletes. Deleting an absent one succeeds (it was deleted meanwhile), as with BatchWriteItem.
 */
export async function deleteSubmissionsAudited(
  submissionIds: string[],
  entry: (chunk: string[]) => AuditEntryInput,
): Promise<void> {
  const TableName = tableName();
  for (let at = 0; at < submissionIds.length; at += AUDITED_DELETE_CHUNK) {
    const chunk = submissionIds.slice(at, at + AUDITED_DELETE_CHUNK);
    await transactWithRetry({
      TransactItems: [...chunk.map((id) => ({ Delete: { TableName, Key: keys.submission(id) } })), auditEntryItem(entry(chunk))],
    });
  }
}

/**
 * The newest submissions of a form received in [`from`, `before`) (ISO timestamps), spam
 * included: one Query of the form's index, newest first, `Limit limit`, never more (a digest's
 * page, docs/notifications.md "Digests"). `full` says whether the range may hold more.
 */
export async function newestFormSubmissions(
  formId: string,
  range: { from: string; before: string },
  limit: number,
): Promise<{ submissions: StoredSubmission[]; full: boolean }> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      // `before` is never a whole sort key (those carry `#<id>` after the timestamp).
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk BETWEEN :from AND :before",
      ExpressionAttributeValues: { ":pk": keys.submissionIndexPartition(formId), ":from": range.from, ":before": range.before },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  const live = (out.Items ?? []).flatMap((item) => liveSubmission(item) ?? []);
  return { submissions: live, full: out.LastEvaluatedKey !== undefined };
}
