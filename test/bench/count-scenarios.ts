import { newId } from "../../lib/ids";
import type { Submission } from "../../lib/store/submissions";
import { type Account, createSite, signupOwner } from "../support/api";
import { countsSettle, storedRecord, streamEvent } from "../support/bookkeeping";
import { insertForm } from "../support/fixtures";
import type { Recorder, RecordingSummary } from "../support/recording-client";
import { makeSubmission, putSubmissions } from "../support/submissions";
import { type HttpHandler, httpEvent, invoke } from "./events";

/**
 * The scenarios of the counts (docs/performance.md, section 2): reading a form's counts costs
 * the same for a form of 50 submissions as for one of 5,000, and what the bookkeeper writes per
 * stream batch. The submissions are written straight to the table (BatchWriteItem, the fast way
 * to a big form) and counted by the stack's own bookkeeper from the stream, as intake's would be;
 * most are spam, so the queue's consumer has little to do with them (the counts are the same
 * work either way).
 */

/** The read bars: the same for every form size (no read grows with the data). */
export const COUNT_BARS = {
  formDetail: { sequentialRoundTrips: 4, rcu: 3 },
  formsList: { sequentialRoundTrips: 5, rcu: 3.5 },
  /** Write units of one bookkeeper batch (a transaction: twice the units of its items). */
  bookkeeperBatchOfOne: { wcu: 8 },
  bookkeeperBatchOf100: { wcu: 8 },
} as const;

export const FORM_SIZES = [50, 5_000] as const;
/** Inbox submissions of each seeded form; the rest are spam. */
const INBOX = 40;

export interface SizedForm {
  size: number;
  siteId: string;
  formId: string;
}

export interface CountFixture {
  owner: Account;
  forms: SizedForm[];
}

/** One site per size, each with one form holding that many submissions, counted. */
export async function prepareCountFixture(): Promise<CountFixture> {
  const owner = await signupOwner("counts-perf");
  const forms: SizedForm[] = [];
  for (const size of FORM_SIZES) {
    const siteId = await createSite(owner, `Form of ${size}`);
    const form = await insertForm(owner, siteId, { name: `Form of ${size}` });
    const webhookId = newId("webhook");
    const submissions: Submission[] = Array.from({ length: size }, (_, i) =>
      makeSubmission(form, {
        webhookId,
        data: { email: `person${i}@example.com`, message: `Submission ${i} of a form of ${size}` },
        spam: { score: i < INBOX ? 0 : 100, isSpam: i >= INBOX, signals: [] },
      }),
    );
    await putSubmissions(submissions);
    await countsSettle(form.id, { inbox: INBOX, spam: size - INBOX }, 120_000);
    forms.push({ size, siteId, formId: form.id });
  }
  return { owner, forms };
}

export interface CountReadResult {
  size: number;
  detail: RecordingSummary;
  list: RecordingSummary;
  counts: { submissionCount: number; spamCount: number };
}

const auth = (owner: Account) => ({ authorization: `Bearer ${owner.token}`, "user-agent": "inlet-bench" });

/** GET /v1/forms/{id} and GET /v1/sites/{id}/forms for each size, recorded (after one warm-up each). */
export async function runCountReads(recorder: Recorder, fixture: CountFixture): Promise<CountReadResult[]> {
  // One after the other: jest's ESM loader fails concurrent imports sharing a dependency.
  const detail = (await import("../../functions/forms/get-form")).handler as HttpHandler;
  const list = (await import("../../functions/forms/list-forms")).handler as HttpHandler;
  const results: CountReadResult[] = [];
  for (const form of fixture.forms) {
    const detailEvent = () =>
      httpEvent({
        routeKey: "GET /api/v1/forms/{formId}",
        path: `/api/v1/forms/${form.formId}`,
        pathParameters: { formId: form.formId },
        headers: auth(fixture.owner),
      });
    const listEvent = () =>
      httpEvent({
        routeKey: "GET /api/v1/sites/{id}/forms",
        path: `/api/v1/sites/${form.siteId}/forms`,
        pathParameters: { id: form.siteId },
        headers: auth(fixture.owner),
      });
    await invoke(detail, detailEvent());
    await invoke(list, listEvent());
    const read = await recorder.run(() => invoke(detail, detailEvent()));
    const listed = await recorder.run(() => invoke(list, listEvent()));
    if (read.result.statusCode !== 200 || listed.result.statusCode !== 200) {
      throw new Error(`form reads answered ${read.result.statusCode} and ${listed.result.statusCode}`);
    }
    const { submissionCount, spamCount } = read.result.json.data.form;
    results.push({ size: form.size, detail: read.summary, list: listed.summary, counts: { submissionCount, spamCount } });
  }
  return results;
}

export interface BookkeeperWork {
  /** One stored submission, its site's day item already there (the steady state). */
  batchOfOne: RecordingSummary;
  /** 100 stored submissions of one form through one webhook. */
  batchOf100: RecordingSummary;
  /** 100 stored submissions of 100 forms and webhooks of one site: the most counters one batch of 100 can touch. */
  batchOf100Spread: RecordingSummary;
}

/**
 * What the bookkeeper writes per batch, recorded on the handler with synthesized stream records
 * (for ids of this run only, nothing else counts them).
 */
export async function measureBookkeeper(recorder: Recorder): Promise<BookkeeperWork> {
  const { handler } = await import("../../functions/bookkeeping/keep-books");
  const target = { id: newId("form"), orgId: newId("organization"), siteId: newId("site") };
  const webhookId = newId("webhook");
  const one = () => storedRecord(makeSubmission(target, { webhookId }));
  await handler(streamEvent([one()]));
  const batchOfOne = (await recorder.run(() => handler(streamEvent([one()])))).summary;
  const batchOf100 = (await recorder.run(() => handler(streamEvent(Array.from({ length: 100 }, one))))).summary;
  const spread = Array.from({ length: 100 }, () =>
    storedRecord(makeSubmission({ ...target, id: newId("form") }, { webhookId: newId("webhook") })),
  );
  const batchOf100Spread = (await recorder.run(() => handler(streamEvent(spread)))).summary;
  return { batchOfOne, batchOf100, batchOf100Spread };
}
