import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionFailedItem, db, isConditionFailure, tableName } from "../aws/dynamodb";
import { batchGet, deleteKeys } from "./batch";
import { allMatching, type FilteredQuery, filteredPage } from "./filtered-query";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import type { Lead, RawValue, SpamVerdict } from "./shapes";
import { GSI1 } from "./table-definition";

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
  subject?: string;
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
}

export const toSubmission = (item: Record<string, unknown>): StoredSubmission => {
  const rest = fromItem<Record<string, unknown>>(item);
  // Field keys come from submitted data: no prototype, so `__proto__` stays an ordinary key.
  const data = Object.assign(Object.create(null), rest.data ?? {}) as Submission["data"];
  return { ...(rest as unknown as StoredSubmission), data };
};

export async function getSubmission(submissionId: string): Promise<StoredSubmission | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.submission(submissionId) }));
  return out.Item ? toSubmission(out.Item) : undefined;
}

/** A strongly consistent read: the intake consumer must see a moderation that just happened. */
export async function getSubmissionConsistent(submissionId: string): Promise<StoredSubmission | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.submission(submissionId), ConsistentRead: true }),
  );
  return out.Item ? toSubmission(out.Item) : undefined;
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
export async function storeLeadOnce(submissionId: string, lead: Lead): Promise<Lead | Outcome<"NOT_FOUND" | "SPAM">> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.submission(submissionId),
        UpdateExpression: "SET #lead = if_not_exists(#lead, :lead)",
        ConditionExpression: "attribute_exists(pk) AND (attribute_exists(#lead) OR isSpam = :false)",
        ExpressionAttributeNames: { "#lead": "lead" },
        ExpressionAttributeValues: { ":lead": lead, ":false": false },
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
export async function deleteSubmission(submissionId: string, orgId: string): Promise<Outcome<"OK" | "NOT_FOUND">> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.submission(submissionId),
        ConditionExpression: "attribute_exists(pk) AND orgId = :org",
        ExpressionAttributeValues: { ":org": orgId },
      }),
    );
    return "OK";
  } catch (error) {
    if (isConditionFailure(error)) return "NOT_FOUND";
    throw error;
  }
}

/** Who owns each of `submissionIds` (BatchGetItem, 100 keys per call, only the owning ids projected). */
export async function submissionOwners(
  submissionIds: string[],
): Promise<Map<string, { orgId: string; siteId: string; formId: string }>> {
  const items = await batchGet(
    submissionIds.map((id) => keys.submission(id)),
    { projection: "id, orgId, siteId, formId" },
  );
  const owners = new Map<string, { orgId: string; siteId: string; formId: string }>();
  for (const item of items) {
    if (item)
      owners.set(String(item.id), { orgId: String(item.orgId), siteId: String(item.siteId), formId: String(item.formId) });
  }
  return owners;
}

/** Deletes submissions by id (BatchWriteItem; deleting an absent one succeeds). */
export const deleteSubmissions = (submissionIds: string[]) => deleteKeys(submissionIds.map((id) => keys.submission(id)));

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
  return { submissions: (out.Items ?? []).map(toSubmission), full: out.LastEvaluatedKey !== undefined };
}
