import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { loadConfig } from "./config";
import { decodeCursorValue, encodeCursorValue } from "./cursor";
import { dateBounds, isoDate } from "./date-range";
import { normalizedEmail, walkEmailHolders } from "./email-holders";
import { AppError, notFound } from "./errors";
import { findForm } from "./forms";
import { nowIso } from "./ids";
import { expiresAtOf, expiryOf, retentionOf } from "./retention";
import { queryKey, searchKeysOf, searchToken } from "./search-keys";
import { putAuditEntry } from "./store/audit-log";
import { allSiteForms, getForm } from "./store/forms";
import { boundedValues } from "./store/forward-markers";
import { setSpamState } from "./store/moderation";
import { searchStep } from "./store/search-entries";
import { getSite } from "./store/sites";
import {
  deleteSubmission,
  deleteSubmissionsAudited,
  getSubmission,
  listFormSubmissions,
  type SpamFilter,
  type StoredSubmission,
  type SubmissionQuery,
  submissionOwners,
} from "./store/submissions";
import * as z from "./validation";

export const MAX_BULK_DELETE = 100;
/**
 * Submissions one list request reads at most when filtering (spam, date range): past it the
 * page is answered as it is, with a cursor to continue (docs/api.md, "Submissions"). A search
 * reads the form's search index instead (searchSubmissions).
 */
export const LIST_MAX_EXAMINED = 1000;

export interface ListFilters {
  spam: SpamFilter;
  /** ISO 8601 date (`2026-11-21`) or date-time; inclusive. */
  from?: string;
  /** ISO 8601 date (the whole day is included) or date-time; inclusive. */
  to?: string;
  /** A value a person would type: an email, a phone number, a reference, a name or a word of it, a company (lib/search-keys.ts). */
  q?: string;
}

/** The list's and the export's filters, as query parameters. */
export const filtersQuery = /* @__PURE__ */ z.shared(() =>
  z.object({
    spam: z._default(z.enum(["true", "false", "all"]), "false"),
    from: z.optional(isoDate),
    to: z.optional(isoDate),
    q: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  }),
);

/** Turns the list's query parameters into sort key bounds and an in-function matcher. */
export function submissionQuery(filters: ListFilters): SubmissionQuery {
  const query: SubmissionQuery = { spam: filters.spam, ...dateBounds(filters.from, filters.to) };
  if (filters.q) {
    const key = searchKeyOf(filters.q);
    // The export reads every submission of the range: the same keys decide, without the index.
    query.match = (s) => searchKeysOf(s).includes(key);
  }
  return query;
}

/** The search key a query stands for, or 400 when nothing of it can be searched. */
function searchKeyOf(q: string): string {
  const key = queryKey(q);
  if (key === undefined) {
    throw new AppError("VALIDATION_ERROR", "The request is not valid", [
      { path: "q", message: "Must contain a letter or a digit" },
    ]);
  }
  return key;
}

const spamPasses = (spam: SpamFilter, isSpam: boolean) => spam === "all" || (spam === "true") === isSpam;

/**
 * A search (docs/api.md, "Searching submissions"): the next `limit` entries of the form's search
 * index under the query's key, newest first within the date range, their submissions read in one
 * BatchGetItem, then the spam filter. Two round trips after the form's read, whatever the form's
 * size. The filter can thin a page: it may hold fewer than `limit` submissions (even none) and
 * still carry a cursor.
 */
async function searchSubmissions(
  principal: Principal,
  formId: string,
  filters: ListFilters & { q: string },
  limit: number,
  cursor?: string,
) {
  const { spam, from, before } = submissionQuery(filters);
  const token = searchToken(searchKeyOf(filters.q));
  const range = { ...(from ? { from } : {}), ...(before ? { before } : {}) };
  const page = await searchStep(formId, token, range, limit, cursor);
  const found = page.items.filter((s) => s.orgId === principal.orgId && spamPasses(spam, s.isSpam));
  return { submissions: found.map(submissionView), nextCursor: page.nextCursor };
}

/** The API's shape of a submission: `spam.isSpam` is its current state (after any moderation). */
export function submissionView(stored: StoredSubmission) {
  // A forward-only submission past its bound shows no values, even before the strip deleted them.
  const s = boundedValues(stored);
  return {
    id: s.id,
    formId: s.formId,
    siteId: s.siteId,
    webhookId: s.webhookId,
    referenceId: s.referenceId,
    data: s.data,
    metadata: s.metadata,
    spam: { score: s.spam.score, isSpam: s.isSpam, signals: s.spam.signals },
    releasedAt: s.releasedAt ?? null,
    /** When the form's retention deletes it (docs/privacy.md, "Retention"); null: kept until deleted. */
    expiresAt: expiresAtOf(s.ttl),
    /** Lead qualification (docs/leads.md): null until the intake pipeline has processed the submission. */
    lead: s.lead ?? null,
    valuesDeletedAt: s.valuesDeletedAt ?? null,
    createdAt: s.createdAt,
    // Triage (docs/triage.md): `tags` are the stored ids, a deleted tag's included (the dashboard
    // names them from GET /api/v1/tags and leaves unknown ones out); `updatedAt` is the token of a change.
    status: s.status ?? "new",
    ownerId: s.ownerId ?? null,
    tags: s.tags ?? [],
    updatedAt: s.triagedAt ?? s.createdAt,
    noteCount: s.noteCount ?? 0,
    /** The import that brought it (docs/importing.md); null for a submission that came through a webhook. */
    imported: s.imported ?? null,
  };
}

/** The submission of the caller's organization, whose form is not being purged, with its form, or 404. */
export async function findSubmissionAndForm(principal: Principal, submissionId: string) {
  const submission = await getSubmission(submissionId);
  if (!submission || submission.orgId !== principal.orgId) throw notFound("Submission");
  const form = await getForm(submission.formId);
  if (!form || form.deletedAt) throw notFound("Submission");
  return { submission, form };
}

const findSubmission = async (principal: Principal, submissionId: string): Promise<StoredSubmission> =>
  (await findSubmissionAndForm(principal, submissionId)).submission;

export async function listSubmissions(
  principal: Principal,
  formId: string,
  filters: ListFilters,
  limit: number,
  cursor?: string,
) {
  const form = await findForm(principal, formId);
  if (filters.q) return searchSubmissions(principal, form.id, { ...filters, q: filters.q }, limit, cursor);
  const page = await listFormSubmissions(form.id, submissionQuery(filters), limit, cursor, LIST_MAX_EXAMINED);
  return { submissions: page.items.map(submissionView), nextCursor: page.nextCursor };
}

export async function readSubmission(principal: Principal, submissionId: string) {
  return { submission: submissionView(await findSubmission(principal, submissionId)) };
}

/**
 * Flags or unflags. Unflagging a submission intake stored as spam releases it into the pipeline
 * once (its notifications and outbound webhooks fire); see setSpamState. The form's counts and
 * the site's daily counts move between inbox and spam (on the day the submission was received)
 * in the same transaction as the flag, so they move exactly when it changes.
 */
export async function moderateSubmission(principal: Principal, submissionId: string, isSpam: boolean) {
  const { submission, form } = await findSubmissionAndForm(principal, submissionId);
  if (submission.isSpam === isSpam) return { submission: submissionView(submission) };
  // The new state's expiry under the form's retention, in the same write (docs/privacy.md, "Retention").
  const saved = await setSpamState(submission, isSpam, nowIso(), expiryOf(submission.createdAt, isSpam, retentionOf(form)));
  if (!saved) throw notFound("Submission");
  return { submission: submissionView(saved.submission) };
}

export async function removeSubmission(principal: Principal, sourceIp: string, submissionId: string) {
  const entry = audited(principal, sourceIp, "submission.deleted", { type: "submission", id: submissionId });
  if ((await deleteSubmission(submissionId, principal.orgId, entry)) === "NOT_FOUND") throw notFound("Submission");
  return { message: "Submission deleted" };
}

/** Deletes the caller's submissions among `ids`; the others (unknown, another organization's) are listed as not found. */
export async function removeSubmissions(principal: Principal, sourceIp: string, ids: string[]) {
  const unique = [...new Set(ids)];
  const owners = await submissionOwners(unique);
  const mine = unique.filter((id) => owners.get(id)?.orgId === principal.orgId);
  // One entry per transaction of deletes (99 at most: the API's 100 ids are two), naming the
  // form (the inbox selects within one) or forms, how many and which.
  const forms = [...new Set(mine.map((id) => owners.get(id)?.formId ?? ""))];
  const target = forms.length === 1 ? { type: "form", id: forms[0] as string } : { type: "forms", id: forms.join(" ") };
  await deleteSubmissionsAudited(mine, (chunk) =>
    audited(principal, sourceIp, "submissions.deleted", target, { count: chunk.length, ids: chunk.join(" ") }),
  );
  return { deleted: mine.length, notFound: unique.filter((id) => !mine.includes(id)) };
}

interface EraseCursor {
  formId: string;
  key?: string;
}

function decodeEraseCursor(cursor: string): EraseCursor {
  const c = decodeCursorValue(cursor);
  if (c && typeof c.formId === "string" && (c.key === undefined || typeof c.key === "string")) {
    return { formId: c.formId, ...(c.key === undefined ? {} : { key: c.key }) };
  }
  throw new AppError("INVALID_CURSOR", "The cursor is not valid for this erasure");
}

/**
 * Erasure (GDPR art. 17): deletes every submission of the site holding `email` in a field.
 * Reads each form's submissions through its index partition (docs/data-model.md, "Erasure by
 * email"; lib/email-holders.ts); when the time budget runs out it answers `complete: false` with
 * a cursor, and the same request with that cursor continues where it stopped. The
 * organization-wide erasure is lib/subject-requests.ts.
 */
export async function eraseByEmail(
  principal: Principal,
  sourceIp: string,
  siteId: string,
  address: string,
  cursor?: string,
  now = Date.now,
) {
  const email = normalizedEmail(address);
  // Erasure answers before API Gateway's 30 s limit and tells the caller to continue.
  const deadline = now() + loadConfig().ERASE_TIME_BUDGET_MS;
  // A site can no longer be deleted while it has forms, but one deleted before that rule may
  // have left forms behind: erasure by the old site's id still reaches their submissions.
  const [site, siteForms] = await Promise.all([getSite(principal.orgId, siteId), allSiteForms(siteId)]);
  const forms = siteForms.filter((form) => form.orgId === principal.orgId);
  if (!site && forms.length === 0) throw notFound("Site");
  const resume = cursor ? decodeEraseCursor(cursor) : undefined;
  // Each transaction of deletes carries its entry (the address, how many, which site); an erasure
  // that finds nothing records that too, once, when it completes (docs/privacy.md, "Audit log").
  const target = { type: "site", id: siteId, ...(site ? { name: site.name } : {}) };
  const erased = (count: number) => audited(principal, sourceIp, "submissions.erased", target, { email, count });
  let deleted = 0;
  const stopped = await walkEmailHolders({
    orgId: principal.orgId,
    sites: [{ id: siteId, forms: async () => forms }],
    email,
    from: resume ? { siteId, ...resume } : undefined,
    take: async (items) => {
      await deleteSubmissionsAudited(
        items.map((s) => s.id),
        (chunk) => erased(chunk.length),
      );
      deleted += items.length;
      return false;
    },
    outOfTime: () => now() > deadline,
  });
  if (!stopped) {
    if (deleted === 0 && !cursor) await putAuditEntry(erased(0));
    return { deleted, complete: true, cursor: null };
  }
  const at: EraseCursor = { formId: stopped.formId, ...(stopped.key ? { key: stopped.key } : {}) };
  return { deleted, complete: false, cursor: encodeCursorValue(at) };
}
