import { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, jest } from "@jest/globals";
import type { DynamoDBRecord } from "aws-lambda";
import { handler } from "../../../functions/bookkeeping/keep-books";
import { db } from "../../../lib/aws/dynamodb";
import { keepBooks } from "../../../lib/bookkeeping/keep-books";
import { newId } from "../../../lib/ids";
import { MAX_COUNTERS_PER_CHUNK } from "../../../lib/store/bookkeeping";
import type { Submission } from "../../../lib/store/submissions";
import {
  formCountsItem,
  lambdaRecord,
  removedRecord,
  siteDayItem,
  storedRecord,
  streamEvent,
  webhookCountsItem,
} from "../../support/bookkeeping";
import { makeSubmission } from "../../support/submissions";

/**
 * The bookkeeper (lib/bookkeeping/, lib/store/bookkeeping.ts) against DynamoDB Local, its
 * handler called with Lambda's event shape. The records are synthesized for ids of this test
 * only (nothing is written to the submissions, so the stack's own bookkeeper never sees them);
 * a failure between two chunks is injected into the process's client, since DynamoDB Local
 * cannot be made to refuse one transaction of several.
 */

afterEach(() => {
  jest.restoreAllMocks();
});

/** A site with one webhook feeding one form, and a submission factory for them. */
function target() {
  const form = { id: newId("form"), orgId: newId("organization"), siteId: newId("site") };
  const webhookId = newId("webhook");
  const submit = (overrides: Partial<Submission> = {}) => makeSubmission(form, { webhookId, ...overrides });
  return { form, webhookId, submit };
}

const spam = { score: 100, isSpam: true, signals: [] };

async function counts(t: ReturnType<typeof target>, day: string) {
  const [formCounts, webhook, site] = await Promise.all([
    formCountsItem(t.form.id),
    webhookCountsItem(t.form.siteId, t.webhookId),
    siteDayItem(t.form.siteId, day),
  ]);
  return {
    form: { inbox: formCounts?.inbox, spam: formCounts?.spam },
    webhook: { submissionCount: webhook?.submissionCount, lastReceivedAt: webhook?.lastReceivedAt },
    day: {
      inbox: site?.inbox,
      spam: site?.spam,
      source: site?.[`w:${t.webhookId}`],
      form: site?.[`f:${t.form.id}`],
    },
  };
}

test("a batch counts each stored submission on its form, webhook and day, and each removed one off its form and webhook", async () => {
  const t = target();
  const day = "2026-04-01";
  const a = t.submit({ createdAt: `${day}T09:00:00.000Z` });
  const b = t.submit({ createdAt: `${day}T10:00:00.000Z` });
  const c = t.submit({ createdAt: `${day}T11:00:00.000Z`, spam });
  await handler(streamEvent([storedRecord(a), storedRecord(b), storedRecord(c), removedRecord(b)]));
  expect(await counts(t, day)).toEqual({
    form: { inbox: 1, spam: 1 },
    webhook: { submissionCount: 2, lastReceivedAt: c.createdAt },
    // History: the day keeps what was received, deletions included.
    day: { inbox: 2, spam: 1, source: 2, form: 2 },
  });
  // A removal of a submission moderated to spam before it went lowers the spam count; a run of
  // removals only lowers the webhook's count, never its lastReceivedAt.
  await handler(streamEvent([removedRecord(a, true)]));
  expect(await counts(t, day)).toMatchObject({
    form: { inbox: 1, spam: 0 },
    webhook: { submissionCount: 1, lastReceivedAt: c.createdAt },
  });
});

test("a removal lowers the webhook's count once however often its batch comes; an imported one never touches it", async () => {
  const t = target();
  const day = "2026-04-08";
  const kept = t.submit({ createdAt: `${day}T08:00:00.000Z` });
  const gone = t.submit({ createdAt: `${day}T08:01:00.000Z` });
  // Brought by an import: counted on its form and day, never on a webhook.
  const imported = {
    ...t.submit({ createdAt: `${day}T08:02:00.000Z` }),
    imported: { importId: "imp_x", source: "csv", line: 2 },
  };
  await handler(streamEvent([storedRecord(kept), storedRecord(gone), storedRecord(imported)]));
  expect((await counts(t, day)).webhook).toEqual({ submissionCount: 2, lastReceivedAt: gone.createdAt });
  const removals = streamEvent([removedRecord(gone), removedRecord(imported)]);
  await handler(removals);
  const replay = await keepBooks(removals.Records);
  expect(replay.steps.counts).toMatchObject({ skipped: 2, applied: 0 });
  expect(await counts(t, day)).toMatchObject({
    form: { inbox: 1, spam: 0 },
    webhook: { submissionCount: 1, lastReceivedAt: gone.createdAt },
  });
});

test("a batch handed over twice counts once", async () => {
  const t = target();
  const day = "2026-04-02";
  const batch = streamEvent([
    storedRecord(t.submit({ createdAt: `${day}T08:00:00.000Z` })),
    storedRecord(t.submit({ createdAt: `${day}T08:01:00.000Z`, spam })),
  ]);
  await handler(batch);
  const once = await counts(t, day);
  const replay = await keepBooks(batch.Records);
  expect(replay.steps.counts).toMatchObject({ skipped: 2, applied: 0 });
  expect(await counts(t, day)).toEqual(once);
  expect(once).toMatchObject({ form: { inbox: 1, spam: 1 }, webhook: { submissionCount: 2 }, day: { inbox: 1, spam: 1 } });
});

test("a retry carrying more records than the first delivery applies only the new ones", async () => {
  const t = target();
  const day = "2026-04-03";
  const records = [1, 2, 3, 4, 5].map((i) => storedRecord(t.submit({ createdAt: `${day}T08:0${i}:00.000Z` })));
  await handler(streamEvent(records.slice(0, 2)));
  const retried = await keepBooks(records);
  expect(retried.steps.counts).toMatchObject({ skipped: 2, applied: 3 });
  expect(await counts(t, day)).toMatchObject({ form: { inbox: 5, spam: 0 }, webhook: { submissionCount: 5 }, day: { inbox: 5 } });
});

/** One submission in each of `n` forms of one site: 1 day item, and a form and a webhook item each. */
function spreadBatch(n: number) {
  const siteId = newId("site");
  const orgId = newId("organization");
  const submissions = Array.from({ length: n }, () =>
    makeSubmission({ id: newId("form"), orgId, siteId }, { webhookId: newId("webhook"), createdAt: "2026-04-04T12:00:00.000Z" }),
  );
  return { siteId, submissions, records: submissions.map(storedRecord) };
}

async function everyFormCounted(submissions: Submission[]): Promise<number[]> {
  const found = await Promise.all(submissions.map((s) => formCountsItem(s.formId)));
  return found.map((item) => Number(item?.inbox ?? 0));
}

test(`a batch touching more than ${MAX_COUNTERS_PER_CHUNK} counters is applied in chunks, and a retry after a failed chunk resumes after the last one applied`, async () => {
  // 60 forms and webhooks: 121 counters, so at least two transactions.
  const { siteId, submissions, records } = spreadBatch(60);
  const client = db();
  const real = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  let transactions = 0;
  jest.spyOn(client, "send").mockImplementation((async (command: unknown) => {
    if (command instanceof TransactWriteCommand) {
      transactions += 1;
      expect(command.input.TransactItems?.length).toBeLessThanOrEqual(MAX_COUNTERS_PER_CHUNK + 1);
      if (transactions === 2) throw Object.assign(new Error("injected: the function died here"), { name: "InternalServerError" });
    }
    return real(command);
  }) as never);
  const logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
  await expect(handler(streamEvent(records))).rejects.toThrow("injected");
  expect(logged.mock.calls.map(([line]) => JSON.parse(String(line)).message)).toContain(
    "bookkeeper: a job failed; the batch comes back",
  );
  const partly = await everyFormCounted(submissions);
  const firstChunk = partly.filter((n) => n === 1).length;
  expect(firstChunk).toBeGreaterThan(0);
  expect(firstChunk).toBeLessThan(submissions.length);
  // In record order: the first chunk is a prefix of the batch.
  expect(partly).toEqual([...Array(firstChunk).fill(1), ...Array(submissions.length - firstChunk).fill(0)]);

  // Lambda hands the same batch over again.
  const retried = await keepBooks(records);
  expect(retried.steps.counts).toMatchObject({ skipped: firstChunk, applied: submissions.length - firstChunk });
  expect(await everyFormCounted(submissions)).toEqual(Array(submissions.length).fill(1));
  expect((await siteDayItem(siteId, "2026-04-04"))?.inbox).toBe(submissions.length);
  // And once more, after it succeeded: nothing changes.
  await keepBooks(records);
  expect((await siteDayItem(siteId, "2026-04-04"))?.inbox).toBe(submissions.length);
  expect(await everyFormCounted(submissions)).toEqual(Array(submissions.length).fill(1));
});

test("lastReceivedAt keeps the newest submission when an older one's batch (another shard's) comes later", async () => {
  const t = target();
  const older = t.submit({ createdAt: "2026-04-05T08:00:00.000Z" });
  const newer = t.submit({ createdAt: "2026-04-05T08:00:01.000Z" });
  await handler(streamEvent([storedRecord(newer)]));
  await handler(streamEvent([storedRecord(older)]));
  expect(await webhookCountsItem(t.form.siteId, t.webhookId)).toMatchObject({
    submissionCount: 2,
    lastReceivedAt: newer.createdAt,
  });
});

test("removals of a form or webhook without counts (purged, or stored before the counters) change nothing; a gone form or webhook is not counted again", async () => {
  const t = target();
  const old = t.submit();
  const report = await keepBooks([removedRecord(old)]);
  expect(report.steps.counts).toMatchObject({ applied: 1, dropped: 2 });
  expect(await formCountsItem(t.form.id)).toBeUndefined();
  expect(await webhookCountsItem(t.form.siteId, t.webhookId)).toBeUndefined();

  const { formCountsTombstone, webhookCountsTombstone } = await import("../../../lib/store/submission-counts");
  const { PutCommand } = await import("@aws-sdk/lib-dynamodb");
  const now = new Date().toISOString();
  await db().send(new PutCommand(formCountsTombstone(t.form.id, now)));
  await db().send(new PutCommand(webhookCountsTombstone(t.form.siteId, t.webhookId, now)));
  const late = t.submit({ createdAt: "2026-04-06T08:00:00.000Z" });
  const afterGone = await keepBooks([storedRecord(late), removedRecord(old, true)]);
  expect(afterGone.steps.counts).toMatchObject({ applied: 2, dropped: 2 });
  // A run that only removes finds the tombstones too.
  expect((await keepBooks([removedRecord(late)])).steps.counts).toMatchObject({ applied: 1, dropped: 2 });
  expect(await formCountsItem(t.form.id)).toMatchObject({ gone: true });
  expect((await formCountsItem(t.form.id))?.inbox).toBeUndefined();
  expect((await webhookCountsItem(t.form.siteId, t.webhookId))?.submissionCount).toBeUndefined();
  // The day is history: it counts what was received.
  expect((await siteDayItem(t.form.siteId, "2026-04-06"))?.inbox).toBe(1);
});

test("records of other items, and modifications, are not counted; an unreadable record is logged and skipped", async () => {
  const t = target();
  const s = t.submit({ createdAt: "2026-04-07T08:00:00.000Z" });
  const modified = lambdaRecord("MODIFY", { pk: `SUB#${s.id}`, sk: "SUB", type: "submission", isSpam: true });
  const other = lambdaRecord("INSERT", { pk: `FORM#${t.form.id}`, sk: "FORM", type: "form" });
  const broken = { ...storedRecord(s), dynamodb: { ...storedRecord(s).dynamodb, SequenceNumber: undefined } } as DynamoDBRecord;
  const logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
  const report = await keepBooks([modified, other, broken, storedRecord(s)]);
  expect(report).toMatchObject({ records: 4, unreadable: 1, steps: { counts: { applied: 1 } } });
  expect(logged.mock.calls.map(([line]) => JSON.parse(String(line)).message)).toContain(
    "bookkeeper: a stream record cannot be read",
  );
  expect((await counts(t, "2026-04-07")).form).toEqual({ inbox: 1, spam: 0 });
});
