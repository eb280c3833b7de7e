import { tableName } from "../aws/dynamodb";
import { keys } from "./keys";
import { type CountedSubmission, dayOf, siteDayUpdate } from "./site-days";
import { formCountsUpdate, type StatusDeltas, webhookCountsUpdate } from "./submission-counts";
import { type TransactItem, transact } from "./transactions";

/**
 * The bookkeeper's writes (docs/data-model.md, "Counting a form's submissions"): one stream
 * batch's count changes applied exactly once, however often Lambda hands the batch over.
 *
 * The batch's changes are summed per counter item (a site's day, a form's counts, a webhook's
 * counts) and written in TransactWriteItems together with a checkpoint item keyed by the batch's
 * first record's eventID and the step's name, which holds the sequence number of the last record
 * applied and is conditioned on the value it had before. A transaction holds at most 100 items
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html), so a
 * batch touching more than 99 counter items is applied in chunks, in record order, each moving
 * the checkpoint. A batch handed over again (Lambda retries a failed batch whole, and may deliver
 * one twice: https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventsourcemapping.html)
 * starts with the same record, finds the checkpoint and skips every record up to it: a retry
 * that carries more records applies only those, one that stopped after a chunk resumes after it.
 * This holds because the event source mapping advances past a batch only when the function
 * succeeded for all of it and never splits a batch on retry (BisectBatchOnFunctionError off, no
 * partial batch responses: infra/bookkeeping.ts), so two batches never start inside each other.
 *
 * Sequence numbers increase within a shard, and a batch comes from one shard
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_StreamRecord.html).
 */

/** A checkpoint outlives the stream's 24 hours and the event source's record age limit. */
export const CHECKPOINT_TTL_SECONDS = 7 * 86_400;
/** TransactWriteItems takes 100 items: 99 counters and the checkpoint. */
export const MAX_COUNTERS_PER_CHUNK = 99;
/** Attempts of one chunk when concurrent writes of the same counters cancel it (TransactionConflict). */
const CONFLICT_ATTEMPTS = 10;

/**
 * A stored or removed submission, as one stream record shows it; or a modified one whose counted
 * status moved (a triage change, or a moderation of a triaged submission: `statuses` only).
 */
export interface CountedChange {
  sequenceNumber: string;
  change: "stored" | "removed" | "modified";
  submission: CountedSubmission & { isSpam: boolean };
  /** How the form's per-status counts move (./submission-counts.ts, StatusDeltas). */
  statuses?: StatusDeltas;
}

export interface AppliedBatch {
  /** Records a checkpoint showed were applied by an earlier delivery of the batch. */
  skipped: number;
  applied: number;
  transactions: number;
  /** Counter updates left out: their form or webhook is gone, or the form was never counted. */
  dropped: number;
}

const seq = (sequenceNumber: string) => BigInt(sequenceNumber);

type Counter =
  | {
      kind: "day";
      siteId: string;
      day: string;
      inbox: number;
      spam: number;
      bySource: Map<string, number>;
      byForm: Map<string, number>;
    }
  | { kind: "form"; formId: string; inbox: number; spam: number; statuses: StatusDeltas; stored: boolean }
  /** `lastReceivedAt` undefined: the run only removed submissions of the webhook (it lowers the count, never the time). */
  | { kind: "webhook"; siteId: string; webhookId: string; received: number; lastReceivedAt: string | undefined };

const dayId = (s: CountedSubmission) => `day ${s.siteId} ${dayOf(s.createdAt)}`;
const formId = (s: CountedSubmission) => `form ${s.formId}`;
const webhookId = (s: CountedSubmission) => `webhook ${s.siteId} ${s.webhookId}`;

/**
 * The counter items a change touches: a stored submission counts on its day, form and webhook; a
 * removed one lowers its form's and its webhook's (the day is history); a modified one moves its form's statuses.
 */
const countersOf = (c: CountedChange) => {
  const hook = c.submission.imported ? [] : [webhookId(c.submission)];
  if (c.change === "modified") return [formId(c.submission)];
  return c.change === "removed" ? [formId(c.submission), ...hook] : [dayId(c.submission), formId(c.submission), ...hook];
};

function addStatuses(into: StatusDeltas, by: StatusDeltas | undefined) {
  for (const [status, n] of Object.entries(by ?? {}) as [keyof StatusDeltas, number][]) into[status] = (into[status] ?? 0) + n;
}

const bump = (map: Map<string, number>, id: string, by: number) => map.set(id, (map.get(id) ?? 0) + by);

/** Sums a run of changes per counter item, in the order the items were first touched. */
function sum(changes: readonly CountedChange[]): Map<string, Counter> {
  const counters = new Map<string, Counter>();
  for (const { change, submission: s, statuses } of changes) {
    const inbox = s.isSpam ? 0 : 1;
    const spam = s.isSpam ? 1 : 0;
    const form = (counters.get(formId(s)) as Extract<Counter, { kind: "form" }> | undefined) ?? {
      kind: "form",
      formId: s.formId,
      inbox: 0,
      spam: 0,
      statuses: {},
      stored: false,
    };
    counters.set(formId(s), form);
    addStatuses(form.statuses, statuses);
    if (change === "modified") continue;
    if (change === "removed") {
      form.inbox -= inbox;
      form.spam -= spam;
      if (!s.imported) webhookCounter(counters, s).received -= 1;
      continue;
    }
    form.inbox += inbox;
    form.spam += spam;
    form.stored = true;
    const day = (counters.get(dayId(s)) as Extract<Counter, { kind: "day" }> | undefined) ?? {
      kind: "day",
      siteId: s.siteId,
      day: dayOf(s.createdAt),
      inbox: 0,
      spam: 0,
      bySource: new Map(),
      byForm: new Map(),
    };
    counters.set(dayId(s), day);
    day.inbox += inbox;
    day.spam += spam;
    if (inbox) {
      if (!s.imported) bump(day.bySource, s.webhookId, 1);
      bump(day.byForm, s.formId, 1);
    }
    if (s.imported) continue;
    const hook = webhookCounter(counters, s);
    hook.received += 1;
    if (hook.lastReceivedAt === undefined || s.createdAt > hook.lastReceivedAt) hook.lastReceivedAt = s.createdAt;
  }
  return counters;
}

/** The webhook's counter of a run, created empty at its first change. */
function webhookCounter(counters: Map<string, Counter>, s: CountedSubmission) {
  const found = counters.get(webhookId(s)) as Extract<Counter, { kind: "webhook" }> | undefined;
  if (found) return found;
  const created: Extract<Counter, { kind: "webhook" }> = {
    kind: "webhook",
    siteId: s.siteId,
    webhookId: s.webhookId,
    received: 0,
    lastReceivedAt: undefined,
  };
  counters.set(webhookId(s), created);
  return created;
}

/** The longest run from the start of `changes` whose counters fit one transaction beside the checkpoint. */
export function nextChunk(changes: readonly CountedChange[]): CountedChange[] {
  const touched = new Set<string>();
  let end = 0;
  for (const change of changes) {
    const fresh = countersOf(change).filter((id) => !touched.has(id));
    if (touched.size + fresh.length > MAX_COUNTERS_PER_CHUNK) break;
    for (const id of fresh) touched.add(id);
    end++;
  }
  return changes.slice(0, end);
}

/** How a counter's earlier refusal in this chunk changes its next attempt. */
type Refusal = "drop" | "keep-last";

/** A chunk's transaction items by name: each counter under its id, and the batch's checkpoint. */
type ItemName = `counter:${string}` | "checkpoint";

function counterUpdate(counter: Counter, refusal: Refusal | undefined): TransactItem | undefined {
  if (refusal === "drop") return undefined;
  switch (counter.kind) {
    case "day":
      if (counter.inbox === 0 && counter.spam === 0) return undefined;
      return { Update: siteDayUpdate(counter.siteId, counter.day, counter) };
    case "form":
      // A run whose stores and removals cancel out changes nothing: no write.
      if (counter.inbox === 0 && counter.spam === 0 && Object.values(counter.statuses).every((n) => n === 0)) return undefined;
      return { Update: formCountsUpdate(counter.formId, counter, { mustExist: !counter.stored }) };
    case "webhook":
      return {
        Update: webhookCountsUpdate(counter.siteId, counter.webhookId, counter.received, counter.lastReceivedAt, {
          keepLast: refusal === "keep-last",
        }),
      };
  }
}

/** The checkpoint's write: created by the batch's first chunk, moved from `previous` by the next ones. */
function checkpointPut(batchId: string, step: string, applied: string, previous: string | undefined, nowMs: number) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.streamCheckpoint(batchId, step),
        type: "stream_checkpoint",
        applied,
        ttl: Math.floor(nowMs / 1000) + CHECKPOINT_TTL_SECONDS,
      },
      ConditionExpression: previous === undefined ? "attribute_not_exists(pk)" : "applied = :previous",
      ...(previous === undefined ? {} : { ExpressionAttributeValues: { ":previous": previous } }),
      ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
    },
  } satisfies TransactItem;
}

/**
 * Applies one batch's count changes (in record order) exactly once; see the comment at the top.
 * `batchId` is the eventID of the batch's first record (whatever the step counts), `step` names
 * the bookkeeping job, so each job of the batch has its own checkpoint. Throws when a chunk
 * cannot be written (the batch is then retried whole, and the checkpoint keeps what was applied).
 */
export async function applyCountChanges(
  batchId: string,
  step: string,
  changes: readonly CountedChange[],
  nowMs = Date.now(),
): Promise<AppliedBatch> {
  const report: AppliedBatch = { skipped: 0, applied: 0, transactions: 0, dropped: 0 };
  // Unknown until a write says otherwise: the first attempt assumes no checkpoint (one read
  // fewer per batch), and a replay learns the checkpoint from its refusal.
  let checkpoint: string | undefined;
  let pending = [...changes];
  const refusals = new Map<string, Refusal>();
  while (pending.length > 0) {
    const chunk = nextChunk(pending);
    const last = chunk.at(-1) as CountedChange;
    const counters = [...sum(chunk).entries()].flatMap(([id, counter]) => {
      const item = counterUpdate(counter, refusals.get(id));
      return item ? [{ name: `counter:${id}` as const, counter, id, item }] : [];
    });
    const cancelled = await transact<ItemName>(
      [
        ...counters.map(({ name, item }) => [name, item] as const),
        ["checkpoint", checkpointPut(batchId, step, last.sequenceNumber, checkpoint, nowMs)],
      ],
      CONFLICT_ATTEMPTS,
    );
    if (cancelled?.refused("checkpoint")) {
      // Applied (in part or whole) by an earlier delivery: skip what it says, go on from there.
      const found = cancelled.found("checkpoint")?.applied;
      if (typeof found !== "string") throw cancelled.error;
      checkpoint = found;
      const before = pending.length;
      pending = pending.filter((c) => seq(c.sequenceNumber) > seq(found));
      report.skipped += before - pending.length;
      refusals.clear();
      continue;
    }
    if (cancelled) {
      for (const { name, counter, id } of counters) {
        if (!cancelled.refused(name)) continue;
        // A webhook whose stored lastReceivedAt is newer (a batch of another shard was first) still counts.
        const found = cancelled.found(name);
        const newer = counter.kind === "webhook" && found !== undefined && found.gone !== true;
        refusals.set(id, newer ? "keep-last" : "drop");
        if (!newer) report.dropped++;
      }
      continue;
    }
    report.transactions++;
    report.applied += chunk.length;
    checkpoint = last.sequenceNumber;
    pending = pending.slice(chunk.length);
    refusals.clear();
  }
  return report;
}
