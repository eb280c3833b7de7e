import type { Principal } from "./auth/principal";
import { loadConfig } from "./config";
import { AppError, notFound } from "./errors";
import { findForm } from "./forms";
import { nowIso } from "./ids";
import { queryKey, searchKeysOf, searchToken } from "./search-keys";
import { allSiteForms, getForm } from "./store/forms";
import { setSpamState } from "./store/moderation";
import { searchStep } from "./store/search-entries";
import { getSite } from "./store/sites";
import {
  deleteSubmission,
  deleteSubmissions,
  everyFormSubmission,
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

const isoDate = /* @__PURE__ */ z.shared(() => z.union([z.iso.date(), z.iso.datetime({ offset: true })]));

/** The list's and the export's filters, as query parameters. */
export const filtersQuery = /* @__PURE__ */ z.shared(() =>
  z.object({
    spam: z._default(z.enum(["true", "false", "all"]), "false"),
    from: z.optional(isoDate),
    to: z.optional(isoDate),
    q: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  }),
);

const DAY_MS = 24 * 3600 * 1000;
const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The value list of a field (multi-valued fields are lists). */
const valuesOf = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

/** Turns the list's query parameters into sort key bounds and an in-function matcher. */
export function submissionQuery(filters: ListFilters): SubmissionQuery {
  const query: SubmissionQuery = { spam: filters.spam };
  if (filters.from) query.from = new Date(filters.from).toISOString();
  if (filters.to) {
    // `to` is inclusive: a date includes its whole (UTC) day, a date-time its own millisecond.
    query.before = new Date(Date.parse(filters.to) + (isDateOnly(filters.to) ? DAY_MS : 1)).toISOString();
  }
  if (query.from && query.before && query.from >= query.before) {
    throw new AppError("VALIDATION_ERROR", "The request is not valid", [{ path: "to", message: "Must not be before from" }]);
  }
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
export function submissionView(s: StoredSubmission) {
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
    /** Lead qualification (docs/leads.md): null until the intake pipeline has processed the submission. */
    lead: s.lead ?? null,
    valuesDeletedAt: s.valuesDeletedAt ?? null,
    createdAt: s.createdAt,
  };
}

/** The submission of the caller's organization, whose form is not being purged, or 404. */
async function findSubmission(principal: Principal, submissionId: string): Promise<StoredSubmission> {
  const submission = await getSubmission(submissionId);
  if (!submission || submission.orgId !== principal.orgId) throw notFound("Submission");
  const form = await getForm(submission.formId);
  if (!form || form.deletedAt) throw notFound("Submission");
  return submission;
}

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
  const submission = await findSubmission(principal, submissionId);
  if (submission.isSpam === isSpam) return { submission: submissionView(submission) };
  const saved = await setSpamState(submission, isSpam, nowIso());
  if (!saved) throw notFound("Submission");
  return { submission: submissionView(saved.submission) };
}

export async function removeSubmission(principal: Principal, submissionId: string) {
  if ((await deleteSubmission(submissionId, principal.orgId)) === "NOT_FOUND") throw notFound("Submission");
  return { message: "Submission deleted" };
}

/** Deletes the caller's submissions among `ids`; the others (unknown, another organization's) are listed as not found. */
export async function removeSubmissions(principal: Principal, ids: string[]) {
  const unique = [...new Set(ids)];
  const owners = await submissionOwners(unique);
  const mine = unique.filter((id) => owners.get(id)?.orgId === principal.orgId);
  await deleteSubmissions(mine);
  return { deleted: mine.length, notFound: unique.filter((id) => !mine.includes(id)) };
}

/** True when any field value (or the reply-to address) is `email`, compared without case or surrounding spaces. */
export function holdsEmail(submission: StoredSubmission, email: string): boolean {
  const same = (text: string | undefined) => text !== undefined && text.trim().toLowerCase() === email;
  return same(submission.metadata?.replyTo) || Object.values(submission.data).some((v) => valuesOf(v).some(same));
}

interface EraseCursor {
  formId: string;
  key?: string;
}

const encodeEraseCursor = (c: EraseCursor) => Buffer.from(JSON.stringify(c)).toString("base64url");

function decodeEraseCursor(cursor: string): EraseCursor {
  try {
    const c = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as EraseCursor;
    if (typeof c.formId === "string" && (c.key === undefined || typeof c.key === "string")) return c;
  } catch {
    // fall through
  }
  throw new AppError("INVALID_CURSOR", "The cursor is not valid for this erasure");
}

/**
 * Erasure (GDPR art. 17): deletes every submission of the site holding `email` in a field.
 * Reads each form's submissions through its index partition (docs/data-model.md, "Erasure by
 * email"); when the time budget runs out it answers `complete: false` with a cursor, and the
 * same request with that cursor continues where it stopped.
 */
export async function eraseByEmail(principal: Principal, siteId: string, address: string, cursor?: string, now = Date.now) {
  const email = address.trim().toLowerCase();
  // Erasure answers before API Gateway's 30 s limit and tells the caller to continue.
  const deadline = now() + loadConfig().ERASE_TIME_BUDGET_MS;
  // A site can no longer be deleted while it has forms, but one deleted before that rule may
  // have left forms behind: erasure by the old site's id still reaches their submissions.
  const [site, siteForms] = await Promise.all([getSite(principal.orgId, siteId), allSiteForms(siteId)]);
  const forms = siteForms.filter((form) => form.orgId === principal.orgId);
  if (!site && forms.length === 0) throw notFound("Site");
  let resume = cursor ? decodeEraseCursor(cursor) : undefined;
  let start = resume ? forms.findIndex((f) => f.id === resume?.formId) : 0;
  if (start < 0) {
    // The form it stopped in is gone (purged): start over; what was erased stays erased.
    start = 0;
    resume = undefined;
  }
  let deleted = 0;
  for (let i = start; i < forms.length; i++) {
    const form = forms[i] as (typeof forms)[number];
    const key = resume?.formId === form.id ? resume.key : undefined;
    resume = undefined;
    for await (const page of everyFormSubmission(form.id, { spam: "all", match: (s) => holdsEmail(s, email) }, key)) {
      const ids = page.items.filter((s) => s.siteId === siteId && s.orgId === principal.orgId).map((s) => s.id);
      await deleteSubmissions(ids);
      deleted += ids.length;
      if (page.lastKey && now() > deadline) {
        return { deleted, complete: false, cursor: encodeEraseCursor({ formId: form.id, key: page.lastKey }) };
      }
    }
    const next = forms[i + 1];
    if (next && now() > deadline) return { deleted, complete: false, cursor: encodeEraseCursor({ formId: next.id }) };
  }
  return { deleted, complete: true, cursor: null };
}
