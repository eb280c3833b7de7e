import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";
import { db } from "../../lib/aws/dynamodb";
import { keepBooks } from "../../lib/bookkeeping/keep-books";
import { newId } from "../../lib/ids";
import { keyAfter, type ReadRange } from "../../lib/read-ranges";
import type { Form } from "../../lib/store/forms";
import { putReadState } from "../../lib/store/read-ranges";
import { formCountsUpdate } from "../../lib/store/submission-counts";
import { type Submission, submissionItem } from "../../lib/store/submissions";
import { facetsOf, inboxKeyOf, writeViewEntries } from "../../lib/store/view-entries";
import { streamRecord } from "../local-stack/pipeline/support/records";
import { type Account, createSite, signupOwner } from "../support/api";
import { insertForm } from "../support/fixtures";
import type { Recorder, RecordingSummary } from "../support/recording-client";
import { makeSubmission, putSubmissions, storedItem } from "../support/submissions";
import { type HttpHandler, httpEvent, invoke } from "./events";
import { median, round } from "./stats";

/**
 * The inbox's triage filters at two sizes of a form (docs/performance.md, "Filters and unread"):
 * the same first page of each filter in a form of SMALL and of LARGE submissions, whose round
 * trips and units must be the same, since a filtered page reads one filter partition's page and
 * its submissions, never the form. Every even submission is contacted, owned by the member and
 * tagged; the odd ones are new and nobody's, so each filter holds half the form and a page is
 * full at both sizes. The member has read the newest submissions in pairs with pairs unread
 * between, so the unread page walks several stretches. The submissions, the entries of the
 * partitions read here (as the bookkeeper computes them, lib/store/view-entries.ts `facetsOf`)
 * and the read ranges are written straight to the table (the local bookkeeper writes the same
 * entries in the background, as the search scenarios explain).
 */

export const FILTER_SIZES = { small: 50, large: 5_000 } as const;
/** A page of the scenarios: 10 submissions, each under 1 KB. */
export const FILTER_PAGE = 10;
/**
 * Per filter: read units and sequential round trips of a session's first page, authentication
 * included (a session is 2 round trips; the form and the member's read ranges, in parallel; the
 * filter's Query; the page's BatchGetItem). The unread pages: the ranges first, then one Query
 * per unread stretch (at most 5), then the page's BatchGetItem (a filter's). Measured, then held.
 */
export const FILTER_BARS = {
  status: { rcu: 8, sequentialRoundTrips: 5 },
  owner: { rcu: 8, sequentialRoundTrips: 5 },
  tag: { rcu: 8, sequentialRoundTrips: 5 },
  combined: { rcu: 8, sequentialRoundTrips: 5 },
  unread: { rcu: 5, sequentialRoundTrips: 8 },
  "unread-status": { rcu: 7, sequentialRoundTrips: 9 },
} as const;
/**
 * A status change (new and nobody's to qualified and the member's): the triage route's request
 * (PATCH /api/v1/submissions/{id}, lib/triage.ts), and the bookkeeper's writes for the record it
 * makes: 3 filter entries deleted, 3 put (BatchWriteItem), and the status count with its
 * checkpoint (one transaction).
 */
export const STATUS_CHANGE_BARS = {
  // Authentication (2), the submission, its form and tags, then one transaction: the submission,
  // its timeline entry (the outbox of submission.updated) and the audit entry.
  request: { wcu: 9, sequentialRoundTrips: 5 },
  bookkeeper: { wcu: 10, sequentialRoundTrips: 2 },
} as const;

/** The filters held to bars, and the plain inbox beside them (timed, not held: its spam filter reads in steps of 100). */
export type FilterKind = keyof typeof FILTER_BARS | "inbox";
const KINDS: FilterKind[] = ["inbox", ...(Object.keys(FILTER_BARS) as (keyof typeof FILTER_BARS)[])];

export interface FilterFixture {
  owner: Account;
  forms: Record<keyof typeof FILTER_SIZES, { form: Form; submissions: Submission[] }>;
  tagId: string;
}

const triaged = (s: Submission, n: number, owner: Account, tagId: string) =>
  n % 2 === 0 ? { ...s, status: "contacted", ownerId: owner.userId, tags: [tagId] } : s;

async function seedForm(owner: Account, siteId: string, size: number, tagId: string) {
  const form = await insertForm(owner, siteId, { name: `filters (${size})` });
  const start = Date.now() - size * 60_000;
  const submissions = Array.from({ length: size }, (_, n) =>
    triaged(
      makeSubmission(form, {
        createdAt: new Date(start + n * 60_000).toISOString(),
        data: { name: `Lead ${n}`, email: `lead${n}@example.com`, message: "Please call me back about a quote." },
      }),
      n,
      owner,
      tagId,
    ),
  );
  await putSubmissions(submissions);
  const read = new Set([`S=contacted`, `O=${owner.userId}`, `T=${tagId}`, `S=contacted&O=${owner.userId}&T=${tagId}`]);
  await writeViewEntries(
    submissions.flatMap((s) =>
      facetsOf(submissionItem(s))
        .filter((facet) => read.has(facet))
        .map((facet) => ({ formId: form.id, facet, createdAt: s.createdAt, submissionId: s.id, put: {} })),
    ),
  );
  // Newest first: read 2, unread 2, ... over the newest 40 (each read pair one range).
  const newest = [...submissions].reverse().slice(0, 40);
  const ranges: ReadRange[] = [];
  for (let i = 0; i + 1 < newest.length; i += 4) {
    const [a, b] = [newest[i + 1] as Submission, newest[i] as Submission];
    ranges.unshift([inboxKeyOf(a), keyAfter(inboxKeyOf(b))]);
  }
  await putReadState(owner.userId, form.id, ranges, 0);
  // The form's counts item, as the stack's bookkeeper makes it from these INSERTs (in the
  // background): a status change moves a count only on an existing item, so it is there first.
  await db().send(new UpdateCommand(formCountsUpdate(form.id, { inbox: 0, spam: 0 })));
  return { form, submissions };
}

export async function prepareFilterFixture(): Promise<FilterFixture> {
  const owner = await signupOwner("filters-perf");
  const siteId = await createSite(owner, "filters perf site");
  const tagId = newId("tag");
  const small = await seedForm(owner, siteId, FILTER_SIZES.small, tagId);
  const large = await seedForm(owner, siteId, FILTER_SIZES.large, tagId);
  return { owner, tagId, forms: { small, large } };
}

const QUERIES = (f: FilterFixture): Record<FilterKind, Record<string, string>> => ({
  inbox: {},
  status: { status: "contacted" },
  owner: { owner: "me" },
  tag: { tag: f.tagId },
  combined: { status: "contacted", owner: "me", tag: f.tagId },
  unread: { unread: "true" },
  "unread-status": { unread: "true", status: "contacted" },
});

const listEvent = (formId: string, token: string, query: Record<string, string>) =>
  httpEvent({
    routeKey: "GET /api/v1/forms/{formId}/submissions",
    path: `/api/v1/forms/${formId}/submissions`,
    pathParameters: { formId },
    query: { limit: String(FILTER_PAGE), ...query },
    headers: { authorization: `Bearer ${token}`, "user-agent": "inlet-bench" },
  });

export interface FilterResult {
  kind: FilterKind;
  size: keyof typeof FILTER_SIZES;
  found: number;
  summary: RecordingSummary;
}

export const loadListHandler = async () => (await import("../../functions/submissions/list-submissions")).handler as HttpHandler;

async function firstPage(handler: HttpHandler, fixture: FilterFixture, size: keyof typeof FILTER_SIZES, kind: FilterKind) {
  const result = await invoke(handler, listEvent(fixture.forms[size].form.id, fixture.owner.token, QUERIES(fixture)[kind]));
  if (result.statusCode !== 200) throw new Error(`filter ${kind} ${size}: ${result.statusCode} ${result.body}`);
  return (result.json?.data?.submissions ?? []).length as number;
}

/** Each filter's first page in each form, recording each request's DynamoDB calls. */
export async function runFilterScenarios(recorder: Recorder, fixture: FilterFixture, handler: HttpHandler) {
  const results: FilterResult[] = [];
  for (const size of ["small", "large"] as const) {
    for (const kind of KINDS) {
      const { result, summary } = await recorder.run<number>(() => firstPage(handler, fixture, size, kind));
      results.push({ kind, size, found: result, summary });
    }
  }
  return results;
}

const patchEvent = (submissionId: string, token: string, body: Record<string, unknown>) =>
  httpEvent({
    routeKey: "PATCH /api/v1/submissions/{submissionId}",
    path: `/api/v1/submissions/${submissionId}`,
    pathParameters: { submissionId },
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "user-agent": "inlet-bench" },
    body: JSON.stringify(body),
  });

export interface StatusChangeResult {
  size: keyof typeof FILTER_SIZES;
  /** The triage route's request (PATCH /api/v1/submissions/{id}: new and nobody's → qualified and the member's). */
  request: RecordingSummary;
  /** The bookkeeper's work for the submission's MODIFY record (filter entries and the status count). */
  bookkeeper: RecordingSummary;
}

/**
 * A status change at each size: the triage route's request, then the bookkeeper's work for the
 * stream record it makes (the submission's images before and after, read outside the recording).
 */
export async function runStatusChanges(recorder: Recorder, fixture: FilterFixture): Promise<StatusChangeResult[]> {
  const patch = (await import("../../functions/triage/patch-submission")).handler as HttpHandler;
  const out: StatusChangeResult[] = [];
  for (const size of ["small", "large"] as const) {
    const target = fixture.forms[size].submissions[1] as Submission; // new, nobody's
    const before = (await storedItem(target.id)) as Record<string, unknown>;
    const { result, summary: request } = await recorder.run(() =>
      invoke(patch, patchEvent(target.id, fixture.owner.token, { status: "qualified", ownerId: fixture.owner.userId })),
    );
    if (result.statusCode !== 200) throw new Error(`status change ${size}: ${result.statusCode} ${result.body}`);
    const after = (await storedItem(target.id)) as Record<string, unknown>;
    const { summary: bookkeeper } = await recorder.run(() =>
      keepBooks([streamRecord("MODIFY", after, before) as DynamoDBRecord]),
    );
    out.push({ size, request, bookkeeper });
  }
  return out;
}

export interface FilterTiming {
  kind: FilterKind;
  medianMs: number;
  p90Ms: number;
  found: number;
}

/** `npm run bench`: the first page's time of each filter and of the plain inbox in the large form, side by side. */
export async function timeFilters(fixture: FilterFixture, handler: HttpHandler, runs: number): Promise<FilterTiming[]> {
  const timings: FilterTiming[] = [];
  for (const kind of KINDS) {
    await firstPage(handler, fixture, "large", kind); // warm
    const ms: number[] = [];
    let found = 0;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      found = await firstPage(handler, fixture, "large", kind);
      ms.push(performance.now() - started);
    }
    const sorted = [...ms].sort((a, b) => a - b);
    timings.push({
      kind,
      medianMs: round(median(ms), 1),
      p90Ms: round(sorted[Math.floor(0.9 * (sorted.length - 1))] as number, 1),
      found,
    });
  }
  return timings;
}

export function filterReport(timings: readonly FilterTiming[]): string {
  const rows = timings.map((t) => `| ${t.kind} | ${t.found} | ${t.medianMs} | ${t.p90Ms} |`);
  return [
    `First page (${FILTER_PAGE}) of a ${FILTER_SIZES.large.toLocaleString("en")}-submission form, session, in process against DynamoDB Local`,
    "| Filter | Found | Median ms | p90 ms |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}
