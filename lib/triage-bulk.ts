import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { getMember } from "./store/members";
import type { SubmissionStatus } from "./store/shapes";
import { listTags } from "./store/tags";
import { TRIAGE_CHUNK, type TriageTarget, type TriageWrite, triageTargets, writeTriage } from "./store/triage";
import { changeEntry, hasChanges, ownerChangeAllowed, planTriage, type RejectionCode, triageError, triageOf } from "./triage";

/** At most this many submissions per bulk update (as bulk delete). */
export const MAX_BULK_UPDATE = 100;

export interface BulkTriage {
  ids: string[];
  status?: SubmissionStatus;
  ownerId?: string | null;
  addTags?: string[];
  removeTags?: string[];
}

/**
 * Changes the status, owner or tags of up to 100 submissions (docs/api.md, "Triage"). The
 * caller's submissions among `ids` are changed; the others (unknown, another organization's) are
 * listed as not found; one a rule refuses (spam, a closed lead back to new, another member's
 * lead without submissions.delete, over 10 tags, changed meanwhile) is listed with its code.
 * Up to 40 submissions per transaction, each with its timeline entry, and one audit entry per
 * transaction naming them.
 */
export async function bulkUpdateSubmissions(principal: Principal, sourceIp: string, request: BulkTriage) {
  const unique = [...new Set(request.ids)];
  // Giving leads to someone else needs submissions.delete whatever their owners: refused as a whole.
  if (request.ownerId !== undefined && request.ownerId !== null && !ownerChangeAllowed(principal, null, request.ownerId)) {
    throw triageError("INSUFFICIENT_PERMISSION");
  }
  const [found, owner, tags] = await Promise.all([
    triageTargets(unique),
    request.ownerId ? getMember(principal.orgId, request.ownerId) : undefined,
    (request.addTags ?? []).length > 0 ? listTags(principal.orgId) : [],
  ]);
  if (request.ownerId && !owner) throw triageError("OWNER_NOT_A_MEMBER");
  const known = new Set(tags.map((t) => t.id));
  if ((request.addTags ?? []).some((id) => !known.has(id))) throw triageError("UNKNOWN_TAG");

  const notFound: string[] = [];
  const rejected: { id: string; code: RejectionCode }[] = [];
  let unchanged = 0;
  const writes: TriageWrite[] = [];
  for (const id of unique) {
    const submission = found.get(id);
    if (!submission || submission.orgId !== principal.orgId) {
      notFound.push(id);
      continue;
    }
    if (submission.isSpam) {
      rejected.push({ id, code: "SUBMISSION_IS_SPAM" });
      continue;
    }
    const plan = planTriage(principal, triageOf(submission), request);
    if ("refused" in plan) rejected.push({ id, code: plan.refused });
    else if (!hasChanges(plan.changes)) unchanged++;
    else writes.push({ submission, next: plan.next, entry: changeEntry(principal, submission, plan.changes) });
  }

  let updated = 0;
  for (let at = 0; at < writes.length; at += TRIAGE_CHUNK) {
    let chunk = writes.slice(at, at + TRIAGE_CHUNK);
    // A refused submission cancels its whole transaction: the others are written again without it.
    while (chunk.length > 0) {
      const outcome = await writeTriage(chunk, checksOf(principal, request), auditOf(principal, sourceIp, request, chunk));
      if (outcome.written) {
        updated += chunk.length;
        break;
      }
      if ("unknown" in outcome) throw triageError(outcome.unknown === "owner" ? "OWNER_NOT_A_MEMBER" : "UNKNOWN_TAG");
      for (const [id, why] of outcome.refused) {
        if (why === "NOT_FOUND") notFound.push(id);
        else rejected.push({ id, code: why === "SPAM" ? "SUBMISSION_IS_SPAM" : "CONFLICT" });
      }
      chunk = chunk.filter((w) => !outcome.refused.has(w.submission.id));
    }
  }
  return { updated, unchanged, notFound, rejected };
}

function checksOf(principal: Principal, request: BulkTriage) {
  return {
    orgId: principal.orgId,
    ...(request.ownerId ? { ownerId: request.ownerId } : {}),
    tagIds: [...new Set(request.addTags ?? [])],
  };
}

/** One entry per transaction: the form (the inbox selects within one) or forms, what was asked, how many and which. */
function auditOf(principal: Principal, sourceIp: string, request: BulkTriage, chunk: readonly TriageWrite[]) {
  const forms = [...new Set(chunk.map((w: { submission: TriageTarget }) => w.submission.formId))];
  const target = forms.length === 1 ? { type: "form", id: forms[0] as string } : { type: "forms", id: forms.join(" ") };
  return audited(principal, sourceIp, "submissions.updated", target, {
    count: chunk.length,
    ids: chunk.map((w) => w.submission.id).join(" "),
    ...(request.status !== undefined ? { status: request.status } : {}),
    ...(request.ownerId !== undefined ? { ownerId: request.ownerId } : {}),
    ...(request.addTags?.length ? { addTags: request.addTags.join(" ") } : {}),
    ...(request.removeTags?.length ? { removeTags: request.removeTags.join(" ") } : {}),
  });
}
