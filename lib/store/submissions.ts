import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { cancellationReasons, conditionFailedItem, db, isConditionFailure, tableName } from "../aws/dynamodb";
import { batchGet, deleteKeys } from "./batch";
import { allMatching, type FilteredQuery, filteredPage } from "./filtered-query";
import { fromItem } from "./items";
import { type Key, keys } from "./keys";
import type { Lead, RawValue, SpamVerdict } from "./shapes";
import { transactWithRetry } from "./transactions";

export interface SubmissionMetadata {
  source: string;
  userAgent: string | null;
  referer: string | null;
  ip: string;
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

/** The next reference number of a site: an atomic counter on its own item, never repeated. */
export async function nextReferenceNumber(siteId: string): Promise<number> {
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.siteSequence(siteId),
      UpdateExpression: "ADD #seq :one SET #type = if_not_exists(#type, :type)",
      ExpressionAttributeNames: { "#seq": "seq", "#type": "type" },
      ExpressionAttributeValues: { ":one": 1, ":type": "sequence" },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  return Number(out.Attributes?.seq);
}

export interface Marker {
  key: Key;
  /** Epoch seconds; omitted: kept until the webhook's purge. */
  ttl?: number;
  /**
   * A digest of the request that set the marker (Idempotency-Key markers): a later request with
   * the same key and another digest is a reuse of the key, not a retry (422).
   */
  requestHash?: string;
}

/** What a marker remembers: the first submission's result, and its request's digest when kept. */
export interface MarkerHit {
  result: IntakeResult;
  requestHash?: string;
}

/** A marker counts until the second its `ttl` names; from then on it is expired (reads and writes agree). */
const isExpired = (ttl: unknown, nowSeconds: number) => typeof ttl === "number" && ttl <= nowSeconds;

/** Reads a marker's stored result, ignoring one that expired but lingers (TTL deletes lazily). */
export async function readMarker(marker: Key, nowSeconds = Math.floor(Date.now() / 1000)): Promise<MarkerHit | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: marker, ConsistentRead: true }));
  const item = out.Item;
  if (!item || isExpired(item.ttl, nowSeconds)) return undefined;
  return {
    result: item.result as IntakeResult,
    ...(typeof item.requestHash === "string" ? { requestHash: item.requestHash } : {}),
  };
}

/** Rounds of "a marker blocked the write but was gone when read" before the failure is raised. */
const MARKER_RACE_ATTEMPTS = 3;

/**
 * Stores a submission. With markers (Idempotency-Key, lead id) the submission and the markers
 * are written in one transaction, so a concurrent repeat either stores nothing or is the one
 * that stores; the loser gets the winner's result. A transaction cancelled only for a
 * TransactionConflict (a concurrent repeat writing the same marker at the same moment) is
 * retried with backoff by transactWithRetry: its conditions are re-checked, so the retry either
 * goes through or finds the marker the other request wrote. Without markers it is a single
 * conditional put (half the write cost of a transaction).
 */
export async function storeSubmission(
  submission: Submission,
  result: IntakeResult,
  markers: Marker[],
): Promise<{ stored: true } | { stored: false; first: MarkerHit; marker: Marker }> {
  const TableName = tableName();
  const Item = submissionItem(submission);
  if (markers.length === 0) {
    await db().send(new PutCommand({ TableName, Item, ConditionExpression: "attribute_not_exists(pk)" }));
    return { stored: true };
  }
  for (let attempt = 1; ; attempt++) {
    const nowSeconds = Math.floor(Date.now() / 1000);
    try {
      await transactWithRetry({
        TransactItems: [
          { Put: { TableName, Item, ConditionExpression: "attribute_not_exists(pk)" } },
          ...markers.map((marker) => ({
            Put: {
              TableName,
              Item: {
                ...marker.key,
                type: "marker",
                result,
                ...(marker.ttl ? { ttl: marker.ttl } : {}),
                ...(marker.requestHash ? { requestHash: marker.requestHash } : {}),
              },
              // An expired marker that DynamoDB has not deleted yet may be overwritten.
              ConditionExpression: "attribute_not_exists(pk) OR #ttl <= :now",
              ExpressionAttributeNames: { "#ttl": "ttl" },
              ExpressionAttributeValues: { ":now": nowSeconds },
            },
          })),
        ],
      });
      return { stored: true };
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      for (const [i, marker] of markers.entries()) {
        if (reasons[i + 1] !== "ConditionalCheckFailed") continue;
        const first = await readMarker(marker.key, nowSeconds);
        if (first) return { stored: false, first, marker };
      }
      // The marker that blocked the write was gone when read (it expired meanwhile): write again.
      if (attempt >= MARKER_RACE_ATTEMPTS) throw error;
    }
  }
}

// ---- Management API (lib/submissions.ts, lib/export.ts) ----

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
}

const toSubmission = (item: Record<string, unknown>): StoredSubmission => {
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

/** Release markers outlive any message that can still carry them (queue 4 days, DLQ 14). */
export const RELEASE_TTL_SECONDS = 30 * 24 * 3600;

/**
 * The item whose INSERT sends an unflagged submission into the intake pipeline. The table
 * stream carries new images only, so a filter on the submission's own MODIFY would also pass
 * every later write to it (its lead, a re-flag); a separate item's INSERT happens once per
 * release.
 */
export const releaseItem = (submissionId: string, releasedAt: string) => ({
  ...keys.release(submissionId),
  type: "release",
  submissionId,
  releasedAt,
  ttl: Math.floor(Date.parse(releasedAt) / 1000) + RELEASE_TTL_SECONDS,
});

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
 * Sets a submission's spam state. Unflagging a submission the intake pipeline has not taken up
 * (no `lead` yet: intake stored it as spam, or it was flagged before the consumer reached it)
 * releases it: in one transaction the flag is cleared and the release marker is put, whose
 * INSERT on the table stream sends the submission into the pipeline (infra/intake-filter.ts).
 * If the marker is already there (a release still on its way) the put is a MODIFY, which the
 * filter drops; the consumer's per-action claims keep every side effect to once anyway. A
 * submission intake stored as spam also gets `releasedAt`, set on its first release and kept.
 * Unflagging a submission the pipeline already took up only clears the flag. Each write changes
 * the flag only from the other state, so of two moderations racing to the same state one reports
 * `changed` (the daily counts move once). Undefined when the submission is gone.
 */
export async function setSpamState(
  submission: StoredSubmission,
  isSpam: boolean,
  now: string,
): Promise<{ submission: StoredSubmission; changed: boolean } | undefined> {
  const TableName = tableName();
  const Key = keys.submission(submission.id);
  const release = !isSpam && submission.lead === undefined;
  if (release) {
    try {
      await transactWithRetry({
        TransactItems: [
          {
            Update: {
              TableName,
              Key,
              UpdateExpression: submission.spam.isSpam
                ? "SET isSpam = :false, releasedAt = if_not_exists(releasedAt, :now)"
                : "SET isSpam = :false",
              ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(#lead) AND isSpam = :true",
              ExpressionAttributeNames: { "#lead": "lead" },
              ExpressionAttributeValues: {
                ":false": false,
                ":true": true,
                ...(submission.spam.isSpam ? { ":now": now } : {}),
              },
            },
          },
          { Put: { TableName, Item: releaseItem(submission.id, now) } },
        ],
      });
      const out = await db().send(new GetCommand({ TableName, Key, ConsistentRead: true }));
      return out.Item ? { submission: toSubmission(out.Item), changed: true } : undefined;
    } catch (error) {
      // Taken up by the pipeline meanwhile, unflagged already, or deleted: the plain write below tells which.
      if (cancellationReasons(error)?.[0] !== "ConditionalCheckFailed") throw error;
    }
  }
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName,
        Key,
        UpdateExpression: "SET isSpam = :isSpam",
        ConditionExpression: "attribute_exists(pk) AND isSpam <> :isSpam",
        ExpressionAttributeValues: { ":isSpam": isSpam },
        ReturnValues: "ALL_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return out.Attributes ? { submission: toSubmission(out.Attributes), changed: true } : undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Already in that state (another moderation got there first), or gone.
    const current = conditionFailedItem(error);
    return current ? { submission: toSubmission(current), changed: false } : undefined;
  }
}

/** Deletes one submission if it belongs to `orgId`; false when it does not exist (for that organization). */
export async function deleteSubmission(submissionId: string, orgId: string): Promise<boolean> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.submission(submissionId),
        ConditionExpression: "attribute_exists(pk) AND orgId = :org",
        ExpressionAttributeValues: { ":org": orgId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
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
