import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import type { QueuePollerStats } from "../../infra/local/queue-poller";
import type { LocalPipelineStats } from "../../infra/local/stack";
import type { Account } from "../support/api";
import { formSubmissions, newWebhook, storedSubmission, webhookItem } from "../support/intake";
import { cleanSubmission } from "./scenarios";

/**
 * The queue's batches as they come: a sustained rate of clean submissions through the local
 * stack (its stream follower stands in for the pipe, its queue poller for Lambda's event source
 * with the deployed batch size and batching window), then what the pipeline did for them, per
 * submission: the SQS requests it sent and the consumer invocations it made. The cost model's
 * sustained-rate bill reads these (test/bench/cost.ts, `sustainedTraffic`).
 */

export interface BatchingResult {
  /** Submissions a second asked for, for how long. */
  rate: number;
  seconds: number;
  /** Requests sent, answered 200, and submissions stored (read back from the form's index). */
  sent: number;
  answered: number;
  stored: number;
  /** Answers a second the stack gave (below `rate` when it could not keep up). */
  achievedRate: number;
  /** From the first request until the consumer had handled every stored submission. */
  drainedMs: number;
  /**
   * What the pipeline did over the run (differences of its counters): the poller's, whose
   * `billedMs` is the handler's time in the stack under the run's load (DynamoDB Local shares the
   * cores), and the follower's SendMessageBatch requests.
   */
  pipeline: QueuePollerStats & { sendBatches: number };
  /** Per submission: per message the consumer handled (one each). */
  perSubmission: { send: number; receive: number; delete: number; sqs: number; consumerInvocations: number };
  messagesPerInvocation: number;
  /** Mean billed ms of one consumer invocation in the stack during the run. */
  consumerBilledMsUnderLoad: number;
  /** A lone submission after the run, the pipeline idle: from its answer to its lead stored by the consumer. */
  loneProcessedMs: number;
}

const HEADERS = {
  "content-type": "application/json",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  referer: "https://www.example.com/contact",
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function pipelineStats(benchUrl: string): Promise<LocalPipelineStats> {
  const res = await fetch(`${benchUrl}/bench/pipeline`);
  if (res.status !== 200) throw new Error(`GET /bench/pipeline: ${res.status}`);
  return (await res.json()) as LocalPipelineStats;
}

/** Waits until the consumer has handled `atLeast` more messages than `before`, and nothing moved for a second. */
async function drained(benchUrl: string, before: LocalPipelineStats, atLeast: number, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  let stillSince = Date.now();
  for (;;) {
    const now = await pipelineStats(benchUrl);
    const handled = now.poller.messages - before.poller.messages;
    if (handled !== last) {
      last = handled;
      stillSince = Date.now();
    }
    if (handled >= atLeast && Date.now() - stillSince >= 1000 && now.follower.inFlight === 0) return now;
    if (Date.now() > deadline) throw new Error(`the pipeline handled ${handled} of ${atLeast} messages in ${timeoutMs} ms`);
    await sleep(100);
  }
}

async function post(benchUrl: string, webhook: { id: string; secretKey: string }, body: unknown) {
  const res = await fetch(`${benchUrl}/api/v1/incoming/${webhook.id}?key=${encodeURIComponent(webhook.secretKey)}`, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`intake answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as { submissionId: string };
}

export async function measureBatching(options: {
  benchUrl: string;
  owner: Account;
  siteId: string;
  rate: number;
  seconds: number;
  log: (line: string) => void;
}): Promise<BatchingResult> {
  const webhook = await newWebhook(options.owner, options.siteId, { name: `Batching ${options.rate}/s` });
  // Its first submission creates the form; the run counts from after it is handled.
  const first = await post(options.benchUrl, webhook, { ...cleanSubmission(), nonce: "warmup" });
  const formId = (await webhookItem(webhook.id))?.formId as string;
  const idle = await drained(options.benchUrl, await pipelineStats(options.benchUrl), 0);
  void first;

  options.log(`batching: ${options.rate} submissions a second for ${options.seconds} s`);
  const started = Date.now();
  let answered = 0;
  const result = await autocannon({
    url: options.benchUrl,
    // A connection per submission a second: an answer slower than a second does not hold the rate back.
    connections: options.rate,
    overallRate: options.rate,
    duration: options.seconds,
    timeout: 30,
    requests: [
      {
        method: "POST",
        path: `/api/v1/incoming/${webhook.id}?key=${encodeURIComponent(webhook.secretKey)}`,
        headers: HEADERS,
        setupRequest: (request) => {
          const nonce = randomBytes(8).toString("hex");
          return { ...request, body: JSON.stringify({ ...cleanSubmission(nonce), nonce }) };
        },
        onResponse: (status) => {
          if (status === 200) answered++;
        },
      },
    ],
  });
  const sent = Object.values(result.statusCodeStats ?? {}).reduce((sum, s) => sum + s.count, 0);
  // Requests cut off when the run stopped may still be finishing in the stack: counted once the
  // form's submissions stop growing.
  const storedNow = async () => (await formSubmissions(formId)).filter((s) => s.data.nonce !== "warmup").length;
  let stored = await storedNow();
  for (;;) {
    await sleep(2000);
    const now = await storedNow();
    if (now === stored) break;
    stored = now;
  }
  const after = await drained(options.benchUrl, idle, stored);
  const drainedMs = Date.now() - started;

  const delta = (name: string) => (after.sqsRequests[name] ?? 0) - (idle.sqsRequests[name] ?? 0);
  const p = after.poller;
  const q = idle.poller;
  const pipeline = {
    sendBatches: delta("SendMessageBatchCommand"),
    receives: p.receives - q.receives,
    emptyReceives: p.emptyReceives - q.emptyReceives,
    deletes: p.deletes - q.deletes,
    invocations: p.invocations - q.invocations,
    messages: p.messages - q.messages,
    bySize: p.bySize.map((n, size) => n - (q.bySize[size] ?? 0)),
    billedMs: p.billedMs - q.billedMs,
  };
  // Per message the consumer handled: one per stored submission.
  const per = (n: number) => n / pipeline.messages;

  // A lone submission once everything is handled: the batching window is all it waits for.
  await sleep(3000);
  const lone = await post(options.benchUrl, webhook, { ...cleanSubmission(), nonce: "lone" });
  const answeredAt = Date.now();
  let loneProcessedMs = Number.NaN;
  while (Date.now() - answeredAt < 30_000) {
    const item = await storedSubmission(lone.submissionId);
    if ((item as { lead?: unknown } | undefined)?.lead !== undefined) {
      loneProcessedMs = Date.now() - answeredAt;
      break;
    }
    await sleep(25);
  }

  return {
    rate: options.rate,
    seconds: options.seconds,
    sent,
    answered,
    stored,
    achievedRate: result.requests.average,
    drainedMs,
    pipeline,
    perSubmission: {
      send: per(pipeline.sendBatches),
      receive: per(pipeline.receives),
      delete: per(pipeline.deletes),
      sqs: per(pipeline.sendBatches + pipeline.receives + pipeline.deletes),
      consumerInvocations: per(pipeline.invocations),
    },
    messagesPerInvocation: pipeline.messages / pipeline.invocations,
    consumerBilledMsUnderLoad: pipeline.billedMs / pipeline.invocations,
    loneProcessedMs,
  };
}
