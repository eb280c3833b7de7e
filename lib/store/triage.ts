import { tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditNamed } from "./audit-log";
import { batchGet } from "./batch";
import { isExpired, unexpiredFilter } from "./expiry";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import type { SubmissionStatus } from "./shapes";
import type { StoredSubmission } from "./submissions";
import { type SubmissionChangeEntry, timelineEntryPut } from "./timeline";
import { type Named, type TransactItem, transact } from "./transactions";

/**
 * A submission's triage (docs/triage.md): its status, owner and tags, on the submission item.
 * Each change is one transaction: the submission's update, conditioned on the triage the caller
 * read (`triagedAt`, the concurrency token), the change's timeline entry (the outbox of
 * `submission.updated`), the audit entry, and checks that the new owner is a member and that
 * each added tag exists. A bulk change writes several submissions per transaction.
 */

/** A submission's triage as the API sees it: absent attributes are their defaults. */
export interface TriageState {
  status: SubmissionStatus;
  ownerId: string | null;
  tags: string[];
}

/** What a triage change reads of a submission. */
export type TriageTarget = Pick<
  StoredSubmission,
  "id" | "orgId" | "siteId" | "formId" | "referenceId" | "isSpam" | "createdAt" | "status" | "ownerId" | "tags" | "triagedAt"
>;

/** One submission's change: the state it moves to, and its timeline entry (whose `at` is the new `triagedAt`). */
export interface TriageWrite {
  submission: TriageTarget;
  next: TriageState;
  entry: SubmissionChangeEntry;
}

/** What every change of a transaction must find: the new owner a member, the added tags existing. */
export interface TriageChecks {
  orgId: string;
  ownerId?: string;
  tagIds: readonly string[];
}

/** Transactions hold 100 items: 40 submissions (an update and an entry each), the audit entry, an owner and 10 tags. */
export const TRIAGE_CHUNK = 40;

function submissionUpdate(write: TriageWrite): TransactItem {
  const { submission, next, entry } = write;
  const live = unexpiredFilter();
  const names: Record<string, string> = {
    "#status": "status",
    "#triagedAt": "triagedAt",
    "#ownerId": "ownerId",
    "#tags": "tags",
    ...live.names,
  };
  const values: Record<string, unknown> = {
    ":status": next.status,
    ":at": entry.at,
    ":org": submission.orgId,
    ":false": false,
    ...live.values,
  };
  const sets = ["#status = :status", "#triagedAt = :at"];
  const removes: string[] = [];
  if (next.ownerId === null) removes.push("#ownerId");
  else {
    sets.push("#ownerId = :ownerId");
    values[":ownerId"] = next.ownerId;
  }
  if (next.tags.length === 0) removes.push("#tags");
  else {
    sets.push("#tags = :tags");
    values[":tags"] = next.tags;
  }
  // The triage the caller decided on: unchanged since it was read (a submission never triaged has no triagedAt).
  let seen = "attribute_not_exists(#triagedAt)";
  if (submission.triagedAt !== undefined) {
    seen = "#triagedAt = :seen";
    values[":seen"] = submission.triagedAt;
  }
  return {
    Update: {
      TableName: tableName(),
      Key: keys.submission(submission.id),
      UpdateExpression: `SET ${sets.join(", ")}${removes.length > 0 ? ` REMOVE ${removes.join(", ")}` : ""}`,
      ConditionExpression: `attribute_exists(pk) AND orgId = :org AND isSpam = :false AND ${live.expression} AND ${seen}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: "ALL_OLD",
    },
  };
}

const exists = (key: { pk: string; sk: string }): TransactItem => ({
  ConditionCheck: { TableName: tableName(), Key: key, ConditionExpression: "attribute_exists(pk)" },
});

/** Why a submission's update was refused: gone (or expired), spam, or its triage changed since it was read. */
export type RefusedSubmission = Outcome<"NOT_FOUND" | "SPAM" | "CONFLICT">;

export type TriageOutcome =
  | { written: true }
  | { written: false; unknown: "owner" | "tag" }
  | { written: false; refused: Map<string, RefusedSubmission> };

/**
 * Writes the changes of up to TRIAGE_CHUNK submissions and their audit entry in one transaction.
 * Refused: which of them a condition refused and why (the others were not written either: the
 * caller writes them again without the refused ones), or that the owner or a tag is unknown.
 */
export async function writeTriage(
  writes: readonly TriageWrite[],
  checks: TriageChecks,
  audit: AuditEntryInput,
): Promise<TriageOutcome> {
  const items: Named<string>[] = [];
  for (const write of writes) {
    items.push([`submission:${write.submission.id}`, submissionUpdate(write)]);
    items.push(["entry", timelineEntryPut(write.entry)]);
  }
  if (checks.ownerId !== undefined) items.push(["owner", exists(keys.member(checks.orgId, checks.ownerId))]);
  for (const tagId of checks.tagIds) items.push(["tag", exists(keys.tag(checks.orgId, tagId))]);
  items.push(...auditNamed(audit));
  const cancelled = await transact(items);
  if (!cancelled) return { written: true };
  if (cancelled.refused("owner")) return { written: false, unknown: "owner" };
  if (cancelled.refused("tag")) return { written: false, unknown: "tag" };
  const refused = new Map<string, RefusedSubmission>();
  for (const write of writes) {
    const name = `submission:${write.submission.id}`;
    if (!cancelled.refused(name)) continue;
    const found = cancelled.found(name);
    if (!found || found.orgId !== write.submission.orgId || isExpired(found.ttl)) refused.set(write.submission.id, "NOT_FOUND");
    else if (found.isSpam === true) refused.set(write.submission.id, "SPAM");
    else refused.set(write.submission.id, "CONFLICT");
  }
  if (refused.size === 0) throw cancelled.error;
  return { written: false, refused };
}

/**
 * The triage of each of `submissionIds` that exists and has not expired (BatchGetItem, 100 keys
 * per call, only what a change reads projected: never the submitted values).
 */
export async function triageTargets(submissionIds: readonly string[]): Promise<Map<string, TriageTarget>> {
  const items = await batchGet(
    submissionIds.map((id) => keys.submission(id)),
    {
      projection: "id, orgId, siteId, formId, referenceId, isSpam, createdAt, #status, ownerId, #tags, triagedAt, #ttl",
      names: { "#status": "status", "#tags": "tags", "#ttl": "ttl" },
    },
  );
  const found = new Map<string, TriageTarget>();
  for (const item of items) {
    if (item && !isExpired(item.ttl)) found.set(String(item.id), item as unknown as TriageTarget);
  }
  return found;
}
