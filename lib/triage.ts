import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { AppError, type ErrorCode, notFound } from "./errors";
import { nextTimestamp } from "./forms";
import { newId } from "./ids";
import type { AuditDetails } from "./store/audit-log";
import type { Actor, SubmissionStatus } from "./store/shapes";
import { SUBMISSION_STATUSES } from "./store/shapes";
import type { SubmissionChangeEntry, SubmissionChanges } from "./store/timeline";
import { type TriageState, type TriageTarget, type TriageWrite, writeTriage } from "./store/triage";
import { findSubmissionAndForm, submissionView } from "./submissions";
import * as z from "./validation";

/**
 * A submission's triage (docs/triage.md): status, owner and tags, changed one at a time
 * (PATCH) or in bulk (lib/triage-bulk.ts). The rules below decide; lib/store/triage.ts writes
 * each change with its timeline entry and audit entry in one transaction.
 */

/** At most this many tags on one submission. */
export const MAX_SUBMISSION_TAGS = 10;
/** Closed statuses: a lead someone worked is never `new` again (docs/triage.md, "Statuses"). */
const CLOSED: ReadonlySet<SubmissionStatus> = new Set(["won", "lost"]);

export const statusSchema = /* @__PURE__ */ z.shared(() => z.enum(SUBMISSION_STATUSES));
export const tagIdSchema = /* @__PURE__ */ z.shared(() => z.string().check(z.minLength(1), z.maxLength(64)));
export const userIdSchema = /* @__PURE__ */ z.shared(() => z.string().check(z.minLength(1), z.maxLength(64)));
/** A list of distinct tag ids, at most MAX_SUBMISSION_TAGS. */
export const tagIdsSchema = /* @__PURE__ */ z.shared(() =>
  z.array(tagIdSchema).check(
    z.maxLength(MAX_SUBMISSION_TAGS),
    z.refine((ids) => new Set(ids).size === ids.length, "Tag ids must be distinct"),
  ),
);

/** The triage of a stored submission, its absent attributes as their defaults. */
export const triageOf = (s: Pick<TriageTarget, "status" | "ownerId" | "tags">): TriageState => ({
  status: s.status ?? "new",
  ownerId: s.ownerId ?? null,
  tags: s.tags ?? [],
});

/**
 * Who acts, as the timeline names them: a member or an API key by its id and its name at the time
 * (a key may be renamed or revoked later; the entry keeps what it was called then).
 */
export function timelineActor(principal: Principal): Actor {
  if (principal.kind === "apiKey") return { type: "api_key", id: principal.keyId, name: principal.name };
  return { type: "member", id: principal.userId, name: principal.name };
}

/**
 * Whether the caller may move a submission's owner from `from` to `to`: with forms.edit a member
 * may take an unowned lead or give up their own; anything else needs submissions.delete (owners,
 * admins, an API key holding it).
 */
export function ownerChangeAllowed(principal: Principal, from: string | null, to: string | null): boolean {
  if (principal.permissions.has("submissions.delete")) return true;
  if (principal.kind !== "session") return false;
  return (from === null && to === principal.userId) || (from === principal.userId && to === null);
}

/** Why one submission of a change is refused (a bulk update lists it with its id). */
export const REJECTION_CODES = [
  "SUBMISSION_IS_SPAM",
  "INVALID_STATUS_CHANGE",
  "INSUFFICIENT_PERMISSION",
  "TOO_MANY_TAGS",
  "CONFLICT",
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

/** What a change asks for: a status, an owner (null: nobody), the tags it adds and removes. */
export interface TriageRequest {
  status?: SubmissionStatus;
  ownerId?: string | null;
  addTags?: readonly string[];
  removeTags?: readonly string[];
}

/** The state a request moves a submission to and what changed, or the code that refuses it. */
export function planTriage(
  principal: Principal,
  current: TriageState,
  request: TriageRequest,
): { next: TriageState; changes: SubmissionChanges } | { refused: RejectionCode } {
  const changes: SubmissionChanges = {};
  const next: TriageState = { ...current };
  if (request.status !== undefined && request.status !== current.status) {
    if (request.status === "new" && CLOSED.has(current.status)) return { refused: "INVALID_STATUS_CHANGE" };
    changes.status = { from: current.status, to: request.status };
    next.status = request.status;
  }
  if (request.ownerId !== undefined && request.ownerId !== current.ownerId) {
    if (!ownerChangeAllowed(principal, current.ownerId, request.ownerId)) return { refused: "INSUFFICIENT_PERMISSION" };
    changes.ownerId = { from: current.ownerId, to: request.ownerId };
    next.ownerId = request.ownerId;
  }
  const removing = new Set(request.removeTags ?? []);
  const added = (request.addTags ?? []).filter((id) => !current.tags.includes(id) && !removing.has(id));
  const removed = current.tags.filter((id) => removing.has(id));
  if (added.length > 0 || removed.length > 0) {
    next.tags = [...current.tags.filter((id) => !removing.has(id)), ...added];
    if (next.tags.length > MAX_SUBMISSION_TAGS) return { refused: "TOO_MANY_TAGS" };
    changes.tags = { added, removed };
  }
  return { next, changes };
}

export const hasChanges = (changes: SubmissionChanges) => Object.keys(changes).length > 0;

/** The change's timeline entry: `at` strictly after the submission's last change, so `updatedAt` always moves. */
export function changeEntry(principal: Principal, submission: TriageTarget, changes: SubmissionChanges): SubmissionChangeEntry {
  return {
    type: "submission_change",
    id: newId("change"),
    submissionId: submission.id,
    formId: submission.formId,
    siteId: submission.siteId,
    orgId: submission.orgId,
    at: nextTimestamp(submission.triagedAt ?? submission.createdAt),
    actor: timelineActor(principal),
    changes,
  };
}

/** The changes as an audit entry's plain details. */
export function changeDetails(changes: SubmissionChanges): AuditDetails {
  const details: AuditDetails = {};
  if (changes.status) Object.assign(details, { statusFrom: changes.status.from, statusTo: changes.status.to });
  if (changes.ownerId) Object.assign(details, { ownerFrom: changes.ownerId.from, ownerTo: changes.ownerId.to });
  if (changes.tags)
    Object.assign(details, { tagsAdded: changes.tags.added.join(" "), tagsRemoved: changes.tags.removed.join(" ") });
  return details;
}

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  INVALID_STATUS_CHANGE: "A won or lost lead cannot go back to new",
  INSUFFICIENT_PERMISSION:
    "Changing another member's lead, or giving a lead to someone else, needs the permission submissions.delete",
  TOO_MANY_TAGS: `A submission holds at most ${MAX_SUBMISSION_TAGS} tags`,
  SUBMISSION_IS_SPAM: "A submission flagged as spam cannot be triaged; unflag it first",
  OWNER_NOT_A_MEMBER: "The owner must be a member of the organization",
  UNKNOWN_TAG: "A tag does not exist in the organization",
  CONFLICT: "The submission changed since it was read; reload it and apply your changes again",
};

export const triageError = (code: ErrorCode) => new AppError(code, MESSAGES[code] ?? code);

/** Tags the request's full set adds and removes against the current set. */
const tagDiff = (current: readonly string[], wanted: readonly string[] | undefined) =>
  wanted === undefined
    ? {}
    : { addTags: wanted.filter((id) => !current.includes(id)), removeTags: current.filter((id) => !wanted.includes(id)) };

export interface SubmissionPatch {
  status?: SubmissionStatus;
  ownerId?: string | null;
  /** The full set of tag ids. */
  tags?: string[];
  /** The `updatedAt` the caller's change is based on: 409 CONFLICT when the submission changed since. */
  updatedAt?: string;
}

/**
 * Changes one submission's status, owner and tags (docs/api.md, "Triage"). Setting what it has is
 * a no-op (no timeline entry, no event). Two reads (the submission, its form) and one transaction.
 */
export async function patchSubmission(principal: Principal, sourceIp: string, submissionId: string, patch: SubmissionPatch) {
  const { submission } = await findSubmissionAndForm(principal, submissionId);
  if (submission.isSpam) throw triageError("SUBMISSION_IS_SPAM");
  const updatedAt = submission.triagedAt ?? submission.createdAt;
  if (patch.updatedAt !== undefined && Date.parse(patch.updatedAt) !== Date.parse(updatedAt)) throw triageError("CONFLICT");
  const current = triageOf(submission);
  const plan = planTriage(principal, current, {
    ...(patch.status !== undefined ? { status: patch.status } : {}),
    ...(patch.ownerId !== undefined ? { ownerId: patch.ownerId } : {}),
    ...tagDiff(current.tags, patch.tags),
  });
  if ("refused" in plan) throw triageError(plan.refused);
  if (!hasChanges(plan.changes)) return { submission: submissionView(submission) };
  const entry = changeEntry(principal, submission, plan.changes);
  const write: TriageWrite = { submission, next: plan.next, entry };
  const target = { type: "submission", id: submission.id, name: submission.referenceId };
  const outcome = await writeTriage(
    [write],
    {
      orgId: principal.orgId,
      ...(plan.changes.ownerId?.to ? { ownerId: plan.changes.ownerId.to } : {}),
      tagIds: plan.changes.tags?.added ?? [],
    },
    audited(principal, sourceIp, "submission.updated", target, changeDetails(plan.changes)),
  );
  if (!outcome.written) {
    if ("unknown" in outcome) throw triageError(outcome.unknown === "owner" ? "OWNER_NOT_A_MEMBER" : "UNKNOWN_TAG");
    const why = outcome.refused.get(submission.id);
    if (why === "NOT_FOUND") throw notFound("Submission");
    throw triageError(why === "SPAM" ? "SUBMISSION_IS_SPAM" : "CONFLICT");
  }
  const { ownerId, tags } = plan.next;
  const { ownerId: _o, tags: _t, ...rest } = submission;
  const saved = {
    ...rest,
    status: plan.next.status,
    triagedAt: entry.at,
    ...(ownerId ? { ownerId } : {}),
    ...(tags.length > 0 ? { tags } : {}),
  };
  return { submission: submissionView(saved) };
}
