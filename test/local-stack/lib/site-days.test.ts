import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { handler } from "../../../functions/bookkeeping/keep-books";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { newId, nowIso, sha256Hex } from "../../../lib/ids";
import { storeWithRepeatMarkers } from "../../../lib/intake/storing";
import type { IntakeResult, Marker } from "../../../lib/store/intake-markers";
import { keys } from "../../../lib/store/keys";
import { setSpamState } from "../../../lib/store/moderation";
import { readSiteDays } from "../../../lib/store/site-days";
import { type Submission, submissionItem, toSubmission } from "../../../lib/store/submissions";
import { storedRecord, streamEvent } from "../../support/bookkeeping";
import { eventually } from "../../support/eventually";
import { bookkeepingBarrier } from "../pipeline/support/barrier";

/**
 * The daily counts (lib/store/site-days.ts) as the bookkeeper keeps them from the table stream
 * and moderation moves them, against DynamoDB Local.
 */

function submission(overrides: Partial<Submission> = {}): Submission {
  const id = newId("submission");
  return {
    id,
    orgId: newId("organization"),
    siteId: newId("site"),
    formId: newId("form"),
    webhookId: newId("webhook"),
    referenceId: `TEST-${id.slice(-6)}`,
    data: { email: `${id}@example.com` },
    metadata: { source: "generic", userAgent: null, referer: null, ip: "10.0.0.1", droppedFiles: [], ignoredFields: [] },
    spam: { score: 0, isSpam: false, signals: [] },
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

const resultOf = (s: Submission): IntakeResult => ({ submissionId: s.id, referenceId: s.referenceId, fieldsMapped: ["email"] });

test("a stored submission counts on its UTC day: inbox with its source and form, spam apart", async () => {
  const webhookId = newId("webhook");
  // 23:59:59.999 UTC belongs to that day, whatever the server's time zone.
  const late = submission({ webhookId, createdAt: "2026-03-01T23:59:59.999Z" });
  const spam = submission({
    siteId: late.siteId,
    webhookId,
    formId: late.formId,
    createdAt: "2026-03-01T08:00:00.000Z",
    spam: { score: 100, isSpam: true, signals: [] },
  });
  const next = submission({ siteId: late.siteId, webhookId, formId: late.formId, createdAt: "2026-03-02T00:00:00.000Z" });
  await handler(streamEvent([late, spam, next].map(storedRecord)));
  expect(await readSiteDays(late.siteId, "2026-03-01", "2026-03-02")).toEqual([
    { day: "2026-03-01", inbox: 1, spam: 1, bySource: { [webhookId]: 1 }, byForm: { [late.formId]: 1 } },
    { day: "2026-03-02", inbox: 1, spam: 0, bySource: { [webhookId]: 1 }, byForm: { [late.formId]: 1 } },
  ]);
  // The range is inclusive and stops at its ends.
  expect(await readSiteDays(late.siteId, "2026-03-02", "2026-03-31")).toHaveLength(1);
});

test("a repeat that loses to its marker stores nothing, so the stream counts one submission", async () => {
  const hook = { id: newId("webhook"), source: "generic" as const };
  const first = submission({ webhookId: hook.id });
  const repeat = submission({ siteId: first.siteId, formId: first.formId, webhookId: hook.id, createdAt: first.createdAt });
  const marker: Marker = {
    key: keys.idempotency(hook.id, sha256Hex(newId("submission"))),
    ttl: Math.floor(Date.now() / 1000) + 3600,
  };
  const print = () => sha256Hex(newId("submission"));
  await expect(storeWithRepeatMarkers(hook, first, resultOf(first), [marker], print(), Date.now())).resolves.toMatchObject({
    stored: true,
  });
  await expect(storeWithRepeatMarkers(hook, repeat, resultOf(repeat), [marker], print(), Date.now())).resolves.toEqual({
    stored: false,
    result: resultOf(first),
  });
  const day = first.createdAt.slice(0, 10);
  const counted = [{ day, inbox: 1, spam: 0, bySource: { [hook.id]: 1 }, byForm: { [first.formId]: 1 } }];
  await eventually("the stack's bookkeeper counted the submission", async () =>
    JSON.stringify(await readSiteDays(first.siteId, day, day)) === JSON.stringify(counted) ? true : undefined,
  );
  // Everything written before the barrier is bookkept: no second count is on its way.
  await bookkeepingBarrier();
  expect(await readSiteDays(first.siteId, day, day)).toEqual(counted);
});

test("a moderation of a submission from before the counters reads as 0, never below", async () => {
  const s = submission({ createdAt: "2025-12-24T10:00:00.000Z" });
  // Stored as it was before the counters: the stack's bookkeeper counts the write on its day,
  // which is taken back here to stand for a day that never had it.
  await db().send(new PutCommand({ TableName: tableName(), Item: submissionItem(s) }));
  const day = "2025-12-24";
  await eventually("the stack's bookkeeper counted the write", async () => (await readSiteDays(s.siteId, day, day))[0]);
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.siteDay(s.siteId, day), type: "site_day" } }));
  const moved = await setSpamState(toSubmission({ ...submissionItem(s) }), true, nowIso());
  expect(moved?.changed).toBe(true);
  expect(await readSiteDays(s.siteId, day, day)).toEqual([
    { day, inbox: 0, spam: 1, bySource: { [s.webhookId]: 0 }, byForm: { [s.formId]: 0 } },
  ]);
});
