import type { Principal } from "./auth/principal";
import { dateBounds } from "./date-range";
import { AppError } from "./errors";
import { findForm } from "./forms";
import { isId } from "./ids";
import { isRead, LOWEST_KEY, type ReadRange, unreadGaps } from "./read-ranges";
import { queryKey, searchToken } from "./search-keys";
import { searchStep } from "./store/search-entries";
import { SUBMISSION_STATUSES } from "./store/shapes";
import type { StoredSubmission } from "./store/submissions";
import { toSubmission } from "./store/submissions";
import {
  decodeKeyCursor,
  encodeKeyCursor,
  type FacetFilter,
  facetOf,
  facetPartition,
  inboxKeyOf,
  inboxPartition,
  matchesFacet,
  readWindow,
  submissionsOfEntries,
} from "./store/view-entries";
import { type ListFilters, listSubmissions, submissionView } from "./submissions";
import { readRangesFor, unreadOf } from "./unread";
import * as z from "./validation";

/**
 * The inbox's triage filters (docs/api.md, "Filtering by status, owner, tag and unread";
 * docs/triage.md, "Filters and unread"): `status`, `owner`, `tag` and `unread=true`, combinable
 * with each other and with `from`/`to`. A filtered page reads the filter's own partition
 * (lib/store/view-entries.ts): one Query of `limit` entries and one BatchGetItem of their
 * submissions, whatever the form's size. `unread=true` reads only the stretches between the
 * member's read ranges: at most UNREAD_QUERIES Queries, then the page is answered with a cursor.
 */

/** Queries one unread page makes at most (one per unread stretch, or per DynamoDB page of one). */
export const UNREAD_QUERIES = 5;

const invalid = (path: string, message: string) =>
  new AppError("VALIDATION_ERROR", "The request is not valid", [{ path, message }]);

/** The triage filters as query parameters (beside lib/submissions.ts filtersQuery). */
export const triageQuery = /* @__PURE__ */ z.shared(() =>
  z.object({
    status: z.optional(z.enum(SUBMISSION_STATUSES)),
    /** `me`, `none` (nobody's), or a member's userId. */
    owner: z.optional(
      z.string().check(z.refine((v) => v === "me" || v === "none" || isId("user", v), "Must be me, none or a member's id")),
    ),
    tag: z.optional(z.string().check(z.refine((v) => isId("tag", v), "Must be a tag id"))),
    unread: z.optional(z.enum(["true", "false"])),
  }),
);

export interface TriageFilters {
  status?: (typeof SUBMISSION_STATUSES)[number];
  owner?: string;
  tag?: string;
  unread?: "true" | "false";
}

/** The facet a request asks for, with `me` resolved; 400 for what an API key cannot ask. */
function facetFilterOf(principal: Principal, filters: TriageFilters): FacetFilter {
  if (filters.owner === "me" && principal.kind !== "session")
    throw invalid("owner", "An API key has no `me`: name a member's id");
  if (filters.unread === "true" && principal.kind !== "session") throw invalid("unread", "An API key has no read state");
  const owner = filters.owner === "me" && principal.kind === "session" ? principal.userId : filters.owner;
  return {
    ...(filters.status ? { status: filters.status } : {}),
    ...(owner ? { owner } : {}),
    ...(filters.tag ? { tag: filters.tag } : {}),
  };
}

type Listed = ReturnType<typeof submissionView> & { unread: boolean | null };

const listed = (ranges: readonly ReadRange[] | undefined, s: StoredSubmission): Listed => ({
  ...submissionView(s),
  unread: unreadOf(ranges, s),
});

/**
 * GET /api/v1/forms/{formId}/submissions: without a triage filter, the inbox as before
 * (lib/submissions.ts) with each submission's `unread` for the caller, its read state read beside
 * the page; with one, the filter's partition.
 */
export async function listInbox(
  principal: Principal,
  formId: string,
  filters: ListFilters & TriageFilters,
  limit: number,
  cursor?: string,
): Promise<{ submissions: Listed[]; nextCursor: string | null }> {
  const { status, owner, tag, unread, ...plain } = filters;
  const triage = { status, owner, tag, unread: unread === "true" ? ("true" as const) : undefined };
  if (!triage.status && !triage.owner && !triage.tag && !triage.unread) {
    // A plain search looks up a lead someone knows (an address, a reference): it answers `unread`
    // null and does not read the member's read state, which would cost half a read unit more per
    // search (docs/performance.md, "Triage filters"). Adding any triage filter brings it back.
    const [page, ranges] = await Promise.all([
      listSubmissions(principal, formId, plain, limit, cursor),
      plain.q ? undefined : readRangesFor(principal, formId),
    ]);
    return {
      submissions: page.submissions.map((s) => ({ ...s, unread: unreadOf(ranges, s) })),
      nextCursor: page.nextCursor,
    };
  }
  // Filters list the inbox: spam has no status, owner or tags that count (docs/triage.md).
  if (plain.spam !== "false") throw invalid("spam", "Status, owner, tag and unread filters list the inbox only");
  const facet = facetFilterOf(principal, triage);
  const window = dateBounds(plain.from, plain.to);
  const [form, ranges] = await Promise.all([findForm(principal, formId), readRangesFor(principal, formId)]);
  if (plain.q) return searchFiltered(form.id, { ...window, q: plain.q }, facet, ranges, triage.unread === "true", limit, cursor);
  const start = cursor ? decodeKeyCursor(cursor, window) : undefined;
  const upper = start ?? window.before;
  const from = window.from ?? LOWEST_KEY;
  const name = facetOf(facet);
  if (triage.unread) {
    const page = await unreadPage(form.id, name, facet, ranges ?? [], { from, ...(upper ? { before: upper } : {}) }, limit);
    return { submissions: page.items.map((s) => listed(ranges, s)), nextCursor: page.next ? encodeKeyCursor(page.next) : null };
  }
  const read = await readWindow(facetPartition(form.id, name as string), { from, ...(upper ? { before: upper } : {}) }, limit);
  const found = await submissionsOfEntries(
    form.id,
    read.items.map((i) => i.item),
    facet,
  );
  return {
    submissions: found.map((s) => listed(ranges, s)),
    nextCursor: read.stoppedAt ? encodeKeyCursor(read.stoppedAt) : null,
  };
}

/**
 * The unread submissions of a partition (a filter's, or the plain inbox when only `unread` is
 * asked) within `window`: the stretches between the member's read ranges, newest first, one
 * Query each (a long stretch in DynamoDB pages), at most UNREAD_QUERIES, then one BatchGetItem of
 * the entries' submissions. `next` is where the next page continues, undefined at the end.
 */
async function unreadPage(
  formId: string,
  facet: string | undefined,
  filter: FacetFilter,
  ranges: readonly ReadRange[],
  window: { from: string; before?: string },
  limit: number,
): Promise<{ items: StoredSubmission[]; next?: string }> {
  const partition = facet ? facetPartition(formId, facet) : inboxPartition(formId);
  const gaps = unreadGaps(ranges, window.from, window.before);
  const found: { sk: string; item: Record<string, unknown> }[] = [];
  let queries = 0;
  let next: string | undefined;
  for (const [at, gap] of gaps.entries()) {
    let before = gap.before;
    while (found.length < limit && queries < UNREAD_QUERIES) {
      const read = await readWindow(partition, { from: gap.from, ...(before ? { before } : {}) }, limit - found.length);
      queries++;
      found.push(...read.items);
      before = read.stoppedAt;
      if (before === undefined) break;
    }
    // Stopped inside this stretch: continue below where it stopped; else below the stretch.
    next = before ?? (at < gaps.length - 1 ? gap.from : undefined);
    if (found.length >= limit || queries >= UNREAD_QUERIES) break;
  }
  const items = facet
    ? await submissionsOfEntries(
        formId,
        found.map((f) => f.item),
        filter,
      )
    : found.map((f) => toSubmission(f.item));
  return { items: items.filter((s) => !isRead(ranges, inboxKeyOf(s))), ...(next ? { next } : {}) };
}

/**
 * A search with triage filters: the search's page (lib/store/search-entries.ts, two round trips)
 * thinned to the inbox submissions the filters pass. A page may hold fewer than `limit` (even
 * none) and still carry a cursor, as a search with `spam` does.
 */
async function searchFiltered(
  formId: string,
  filters: { from?: string; before?: string; q: string },
  facet: FacetFilter,
  ranges: readonly ReadRange[] | undefined,
  unreadOnly: boolean,
  limit: number,
  cursor?: string,
) {
  const key = queryKey(filters.q);
  if (key === undefined) throw invalid("q", "Must contain a letter or a digit");
  const range = { ...(filters.from ? { from: filters.from } : {}), ...(filters.before ? { before: filters.before } : {}) };
  const page = await searchStep(formId, searchToken(key), range, limit, cursor);
  const passes = (s: StoredSubmission) =>
    matchesFacet(s as unknown as Record<string, unknown>, facet) && (!unreadOnly || unreadOf(ranges, s) === true);
  return { submissions: page.items.filter(passes).map((s) => listed(ranges, s)), nextCursor: page.nextCursor };
}
