import { performance } from "node:perf_hooks";
import type { SQSEvent } from "aws-lambda";
import { BOOKKEEPER, DIGESTS, QUEUE_CONSUMER, type RouteDef, route } from "../../functions/routes";
import { FUNCTION_DEFAULTS } from "../../infra/inlet-function";
import { api } from "../support/api";
import { storedSubmission, webhookItem } from "../support/intake";
import type { Recorder, RecordingSummary } from "../support/recording-client";
import { invoke, streamInsertEvent } from "./events";
import { cleanSubmission, type Fixture, intakeEvent, loadHandlers } from "./scenarios";
import { mean, median, quantile } from "./stats";

/** Published us-east-1 prices (docs/performance.md, section 3). */
export const PRICES = {
  httpApiPerMillionRequests: 1.0,
  lambdaPerMillionRequests: 0.2,
  lambdaArmPerGbSecond: 0.0000133334,
  dynamodbPerMillionWriteUnits: 0.625,
  dynamodbPerMillionReadUnits: 0.125,
  sqsPerMillionRequests: 0.4,
  pipesPerMillionRequests: 0.4,
  sesPerThousandEmails: 0.1,
  cloudwatchLogsPerGbIngested: 0.5,
  /** HTTPS requests, North America and Europe edges ($0.0100 per 10,000). */
  cloudfrontPerMillionRequests: 1.0,
  /** Data transfer out to the internet, first 10 TB a month. */
  cloudfrontOutPerGb: 0.085,
  /** Data transfer from CloudFront to the origin. */
  cloudfrontToOriginPerGb: 0.02,
} as const;

/** What one submission moves through CloudFront (estimates: a form post with a browser's headers, the JSON answer with its headers). */
export const CLOUDFRONT_BYTES = { request: 2000, answer: 1000 } as const;

/**
 * Lambda's own START, END and REPORT lines per invocation (an estimate, not measured here: they
 * are not our output), when Lambda sends them: only at the system log level INFO. The stack's
 * functions log at WARN (infra/inlet-function.ts), which drops them.
 */
export const PLATFORM_LOG_BYTES_PER_INVOCATION = 300;

/** Lambda's own log bytes per invocation of an Inlet function as deployed: none at WARN. */
export const systemLogBytesPerInvocation = (): number =>
  FUNCTION_DEFAULTS.systemLogLevel === "WARN" ? 0 : PLATFORM_LOG_BYTES_PER_INVOCATION;

export interface RuntimeSample {
  durationMs: number;
  /** CPU time of this process meanwhile: the rest of the duration was waiting (DynamoDB Local, SES). */
  cpuMs: number;
  logBytes: number;
  logLines: number;
}

export interface RuntimeStats {
  runs: number;
  p50Ms: number;
  p99Ms: number;
  cpuP50Ms: number;
  meanMs: number;
  /** Lambda bills each invocation's duration rounded up to the millisecond. */
  meanBilledMs: number;
  logBytesPerInvocation: number;
  logLinesPerInvocation: number;
  sampleLog?: string;
  samples: RuntimeSample[];
}

export function stats(samples: RuntimeSample[], sampleLog?: string): RuntimeStats {
  const durations = samples.map((s) => s.durationMs);
  return {
    runs: samples.length,
    p50Ms: median(durations),
    p99Ms: quantile(durations, 0.99),
    cpuP50Ms: median(samples.map((s) => s.cpuMs)),
    meanMs: mean(durations),
    meanBilledMs: mean(durations.map((d) => Math.ceil(d))),
    logBytesPerInvocation: mean(samples.map((s) => s.logBytes)),
    logLinesPerInvocation: mean(samples.map((s) => s.logLines)),
    ...(sampleLog ? { sampleLog } : {}),
    samples: samples.map((s) => ({ ...s, durationMs: Math.round(s.durationMs * 10) / 10, cpuMs: Math.round(s.cpuMs * 10) / 10 })),
  };
}

export const cpuSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/** Runs `fn` with stdout and stderr captured (counted, not shown): what a function would log. */
export async function captured<T>(fn: () => Promise<T>): Promise<{ value: T; bytes: number; lines: number; text: string }> {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  let text = "";
  const grab = (chunk: unknown) => {
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    return true;
  };
  process.stdout.write = grab as typeof process.stdout.write;
  process.stderr.write = grab as typeof process.stderr.write;
  try {
    const value = await fn();
    return { value, bytes: Buffer.byteLength(text), lines: text.split("\n").filter(Boolean).length, text };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

export interface RuntimeResult {
  intake: RuntimeStats;
  consumer: RuntimeStats & { outcome: string };
  /** The consumer's DynamoDB work for one clean submission (recorded). */
  consumerWork: RecordingSummary;
}

/**
 * Times the intake handler in this process over `runs` clean submissions (the recorder must be
 * uninstalled: its shadow reads would be timed too), capturing what it writes to stdout and
 * stderr, and the consumer on each stored submission's stream record. One more submission goes
 * through the consumer under `recorder` for its DynamoDB work.
 */
export async function measureRuntime(options: {
  fixture: Fixture;
  runs: number;
  recorderFactory: () => Recorder;
}): Promise<RuntimeResult> {
  const { intake } = await loadHandlers();
  const consumer = (await import("../../functions/consumer/process-queue")).handler as (event: SQSEvent) => Promise<unknown>;
  const intakeSamples: RuntimeSample[] = [];
  const consumerSamples: RuntimeSample[] = [];
  let intakeLog = "";
  let consumerLog = "";
  let outcome = "";
  const submitOne = async () => {
    const event = intakeEvent(options.fixture.generic, cleanSubmission());
    const cpu = process.cpuUsage();
    const started = performance.now();
    const run = await captured(() => invoke(intake, event, "inlet-intake"));
    const durationMs = performance.now() - started;
    const cpuMs = cpuSince(cpu);
    if (run.value.statusCode !== 200) throw new Error(`intake answered ${run.value.statusCode}: ${run.value.body}`);
    const item = await storedSubmission(run.value.json.submissionId as string);
    if (!item) throw new Error("the submission is not stored");
    return {
      sample: { durationMs, cpuMs, logBytes: run.bytes, logLines: run.lines },
      text: run.text,
      item: item as unknown as Record<string, unknown>,
    };
  };
  const consumeOne = async (item: Record<string, unknown>) => {
    const event = streamInsertEvent(item);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const run = await captured(() => consumer(event));
    const durationMs = performance.now() - started;
    const cpuMs = cpuSince(cpu);
    return { sample: { durationMs, cpuMs, logBytes: run.bytes, logLines: run.lines }, text: run.text, value: run.value };
  };

  // One warm-up of each, as a warm Lambda instance would be.
  const warm = await submitOne();
  await consumeOne(warm.item);
  for (let i = 0; i < options.runs; i++) {
    const submitted = await submitOne();
    intakeSamples.push(submitted.sample);
    if (submitted.text && !intakeLog) intakeLog = submitted.text;
    const consumed = await consumeOne(submitted.item);
    consumerSamples.push(consumed.sample);
    if (consumed.text && !consumerLog) consumerLog = consumed.text;
    outcome = JSON.stringify(consumed.value);
  }

  const recorder = options.recorderFactory();
  let consumerWork: RecordingSummary;
  try {
    const submitted = await submitOne();
    const { summary } = await recorder.run(async () => {
      await captured(() => consumer(streamInsertEvent(submitted.item)));
    });
    consumerWork = summary;
  } finally {
    recorder.uninstall();
  }
  return {
    intake: stats(intakeSamples, intakeLog.slice(0, 2000) || undefined),
    consumer: { ...stats(consumerSamples, consumerLog.slice(0, 2000) || undefined), outcome },
    consumerWork,
  };
}

/** Makes the form webhook's form notify `email` of every submission (PUT /forms/{id}). */
export async function notifyOnSubmissions(fixture: Fixture, email: string): Promise<void> {
  const formId = (await webhookItem(fixture.generic.id))?.formId as string | undefined;
  if (!formId) throw new Error("the form webhook has no form yet");
  const res = await api("PUT", `/api/v1/forms/${formId}`, {
    token: fixture.owner.token,
    body: { settings: { notifyEmails: [email] } },
  });
  if (res.status !== 200) throw new Error(`form update failed: ${res.status} ${res.text}`);
}

/** How many emails the SES emulator holds (GET /store). */
export async function emailsHeld(sesEndpoint: string): Promise<number> {
  const res = await fetch(`${sesEndpoint}/store`);
  const body = (await res.json()) as { emails?: unknown[] };
  return body.emails?.length ?? 0;
}

export interface CostLine {
  item: string;
  quantity: string;
  usd: number;
}

export interface Bill {
  /** Which traffic the bill is for (QueueTraffic.label). */
  traffic: string;
  lines: CostLine[];
  total: number;
  logBytesPerSubmission: number;
}

/**
 * How one submission's queue message travels, per submission: the pipe's SendMessageBatch, the
 * consumer's ReceiveMessage (empty long polls included) and DeleteMessageBatch, and the consumer
 * invocation its batch takes, at that batch size.
 */
export interface QueueTraffic {
  label: string;
  sqs: { send: number; receive: number; delete: number };
  consumerInvocations: number;
  messagesPerInvocation: number;
  /** Mean billed ms of one consumer invocation at that batch size. */
  consumerBilledMs: number;
  /** The consumer's own log bytes per invocation. */
  consumerLogBytesPerInvocation: number;
  /** The consumer's DynamoDB units per submission. */
  consumerWcu: number;
  consumerRcu: number;
}

/** The low-traffic worst case, as measured on single messages: every batch holds one message. */
export function batchesOfOne(consumer: RuntimeResult): QueueTraffic {
  return {
    label: "batches of one",
    sqs: { send: 1, receive: 1, delete: 1 },
    consumerInvocations: 1,
    messagesPerInvocation: 1,
    consumerBilledMs: consumer.consumer.meanBilledMs,
    consumerLogBytesPerInvocation: consumer.consumer.logBytesPerInvocation,
    consumerWcu: consumer.consumerWork.wcu,
    consumerRcu: consumer.consumerWork.rcu,
  };
}

/** What the bill of one million submissions is computed from. */
export interface BillInput {
  intake: { wcu: number; rcu: number; runtime: RuntimeStats };
  traffic: QueueTraffic;
  email: boolean;
  /** The bookkeeper as measured, and the records per stream batch this bill assumes (absent: not measured). */
  bookkeeper?: { runtime: BookkeeperRuntime; batchSize: number };
}

/** One part of the service's bill: its lines, and the log bytes per submission it writes (billed on one line for all parts). */
export interface CostPart {
  lines: CostLine[];
  logBytes: number;
}

const M = 1_000_000;
const r2 = (n: number) => Math.round(n * 100) / 100;
const gbSeconds = (billedMs: number, memoryMb: number, perSubmission = 1) =>
  (billedMs / 1000) * (memoryMb / 1024) * M * perSubmission;
const computeLine = (item: string, billedMs: number, memoryMb: number, perSubmission = 1): CostLine => {
  const gbS = gbSeconds(billedMs, memoryMb, perSubmission);
  const per = perSubmission === 1 ? "" : ` x ${r2(perSubmission)} invocations`;
  return {
    item,
    quantity: `${r2(billedMs)} ms x ${memoryMb} MB${per} = ${Math.round(gbS)} GB-s`,
    usd: gbS * PRICES.lambdaArmPerGbSecond,
  };
};

export function apiGatewayCost(): CostPart {
  return {
    lines: [{ item: "API Gateway HTTP API requests", quantity: "1 per submission", usd: PRICES.httpApiPerMillionRequests }],
    logBytes: 0,
  };
}

export function intakeCost({ intake }: BillInput): CostPart {
  const memoryMb = (route("POST /api/v1/incoming/{webhookId}") as RouteDef).memoryMb ?? FUNCTION_DEFAULTS.memoryMb;
  return {
    lines: [
      { item: "Lambda requests, intake", quantity: "1 per submission", usd: PRICES.lambdaPerMillionRequests },
      computeLine("Lambda compute, intake", intake.runtime.meanBilledMs, memoryMb),
      {
        item: "DynamoDB writes, intake",
        quantity: `${intake.wcu} WRU per submission`,
        usd: intake.wcu * PRICES.dynamodbPerMillionWriteUnits,
      },
      {
        item: "DynamoDB reads, intake",
        quantity: `${intake.rcu} RRU per submission`,
        usd: intake.rcu * PRICES.dynamodbPerMillionReadUnits,
      },
    ],
    logBytes: intake.runtime.logBytesPerInvocation + systemLogBytesPerInvocation(),
  };
}

export function pipeCost(): CostPart {
  return {
    lines: [
      {
        item: "EventBridge Pipes (stream -> queue)",
        quantity: "1 event per non-spam submission",
        usd: PRICES.pipesPerMillionRequests,
      },
    ],
    logBytes: 0,
  };
}

export function queueCost({ traffic }: BillInput): CostPart {
  const { send, receive, delete: del } = traffic.sqs;
  const total = send + receive + del;
  return {
    lines: [
      {
        item: "SQS requests",
        quantity: `${r2(total)} per submission (send ${r2(send)}, receive ${r2(receive)}, delete ${r2(del)})`,
        usd: total * PRICES.sqsPerMillionRequests,
      },
    ],
    logBytes: 0,
  };
}

export function consumerCost({ traffic }: BillInput): CostPart {
  const t = traffic;
  return {
    lines: [
      {
        item: "Lambda requests, consumer",
        quantity: `${r2(t.consumerInvocations)} per submission (${r2(t.messagesPerInvocation)} messages a batch)`,
        usd: t.consumerInvocations * PRICES.lambdaPerMillionRequests,
      },
      computeLine("Lambda compute, consumer", t.consumerBilledMs, QUEUE_CONSUMER.memoryMb, t.consumerInvocations),
      {
        item: "DynamoDB writes, consumer",
        quantity: `${r2(t.consumerWcu)} WRU per submission`,
        usd: t.consumerWcu * PRICES.dynamodbPerMillionWriteUnits,
      },
      {
        item: "DynamoDB reads, consumer",
        quantity: `${r2(t.consumerRcu)} RRU per submission`,
        usd: t.consumerRcu * PRICES.dynamodbPerMillionReadUnits,
      },
    ],
    logBytes: t.consumerInvocations * (t.consumerLogBytesPerInvocation + systemLogBytesPerInvocation()),
  };
}

export function emailCost({ email }: BillInput): CostPart {
  return {
    lines: email
      ? [{ item: "SES, one notification email", quantity: "1 per submission", usd: PRICES.sesPerThousandEmails * 1000 }]
      : [],
    logBytes: 0,
  };
}

/** List prices and estimated sizes (docs/performance.md, section 3): every intake URL is the distribution's. */
export function cloudFrontCost(): CostPart {
  const out = (CLOUDFRONT_BYTES.answer * M) / 1e9;
  const toOrigin = (CLOUDFRONT_BYTES.request * M) / 1e9;
  return {
    lines: [
      { item: "CloudFront HTTPS requests (/api/*)", quantity: "1 per submission", usd: PRICES.cloudfrontPerMillionRequests },
      {
        item: "CloudFront transfer out",
        quantity: `~${CLOUDFRONT_BYTES.answer} B answer = ${r2(out)} GB`,
        usd: out * PRICES.cloudfrontOutPerGb,
      },
      {
        item: "CloudFront transfer to the origin",
        quantity: `~${CLOUDFRONT_BYTES.request} B request = ${r2(toOrigin)} GB`,
        usd: toOrigin * PRICES.cloudfrontToOriginPerGb,
      },
    ],
    logBytes: 0,
  };
}

/**
 * The parts of the bill, in the order its lines are listed. A part of the service that costs per
 * submission is one more function here: it reads what it needs from the BillInput (add a field
 * for its own measurements) and returns its lines and log bytes.
 */
export const COST_PARTS: ((input: BillInput) => CostPart)[] = [
  apiGatewayCost,
  intakeCost,
  pipeCost,
  queueCost,
  consumerCost,
  bookkeeperPart,
  emailCost,
  cloudFrontCost,
];

/** The bill for one million clean submissions: every part's lines, then the log ingestion they add up to. */
export function bill(input: BillInput, parts = COST_PARTS): Bill {
  const computed = parts.map((part) => part(input));
  const logBytes = computed.reduce((sum, part) => sum + part.logBytes, 0);
  const logGb = (logBytes * M) / 1e9;
  const lines = [
    ...computed.flatMap((part) => part.lines),
    {
      item: "CloudWatch Logs ingestion",
      quantity: `${Math.round(logBytes)} bytes per submission = ${r2(logGb)} GB`,
      usd: logGb * PRICES.cloudwatchLogsPerGbIngested,
    },
  ];
  return {
    traffic: input.traffic.label,
    lines,
    total: lines.reduce((sum, l) => sum + l.usd, 0),
    logBytesPerSubmission: logBytes,
  };
}

export interface CostResult {
  assumptions: string[];
  /** The intake's runtime over all timed runs (every bill uses it). */
  intake: RuntimeStats;
  intakeWcu: number;
  intakeRcu: number;
  withoutEmail: Bill;
  withEmail: Bill;
  /** Without email at a sustained rate, with the queue's batches as they came (test/bench/batching.ts), once measured. */
  sustained?: Bill;
  /** The bookkeeper as measured (its batch-of-one lines are in both bills) and its share at each measured batch size. */
  bookkeeperRuntime?: BookkeeperRuntime;
  bookkeeper?: ReturnType<typeof bookkeeperCost>;
}

const assumptions = () => [
  "one million clean (non-spam) submissions: every one goes through the pipeline",
  "DynamoDB units of the intake: the clean-intake scenario; of the consumer: submissions recorded on a form without, then with, a notification address (no outbound webhook endpoints), alone and in a batch of ten",
  "Lambda durations measured in process against DynamoDB Local (warm instances), mean of the runs, each rounded up to 1 ms as Lambda bills; arm64; memory from the route table; cold starts not included",
  `log bytes: what the handlers wrote to stdout/stderr (measured, at the default LOG_LEVEL), plus Lambda's own START/END/REPORT lines only where the system log level still sends them (${systemLogBytesPerInvocation()} bytes per invocation at the deployed ${FUNCTION_DEFAULTS.systemLogLevel}); GB = 10^9 bytes`,
  "queue at batches of one (the low-traffic worst case): 3 SQS requests (the pipe's SendMessageBatch of one, a receive, a delete) and 1 consumer invocation per submission; at a sustained rate, the requests and batches the local pipeline made (test/bench/batching.ts)",
  `CloudFront at list prices, ~${CLOUDFRONT_BYTES.request} B to the origin and ~${CLOUDFRONT_BYTES.answer} B back per submission; its free tier left out`,
  "not per submission, so not included: storage, DynamoDB Streams GetRecords by the pipe (polled per shard whatever the traffic), the consumer's idle long polls, alarms, the DLQ",
];

/**
 * One million clean submissions at batches of one, without and with one notification email each:
 * the intake's units from the clean-intake scenario, its runtime and the consumer's (both
 * measured) from a form without and with a notification address.
 */
export function costPerMillion(input: {
  intakeWcu: number;
  intakeRcu: number;
  withoutEmail: RuntimeResult;
  withEmail: RuntimeResult;
  bookkeeper?: BookkeeperRuntime;
}): CostResult {
  // The intake does the same work in both: one bill, from all its runs.
  const pooled = stats([...input.withoutEmail.intake.samples, ...input.withEmail.intake.samples]);
  const intake = { wcu: input.intakeWcu, rcu: input.intakeRcu, runtime: pooled };
  const bookkeeper = input.bookkeeper ? { runtime: input.bookkeeper, batchSize: 1 } : undefined;
  return {
    assumptions: [
      ...assumptions(),
      ...(input.bookkeeper
        ? [
            `the bookkeeper (counts from the table stream): in the bills at batches of one (the low-traffic worst case), at a sustained rate at the rate's records per second of its 1 s batching window (interpolated between the measured sizes); at the measured batch sizes alone: ${bookkeeperCost(
              input.bookkeeper,
            )
              .map((b) => `${b.batchSize} per batch $${b.total.toFixed(3)}`)
              .join(", ")} per million; its stream reads are free`,
          ]
        : []),
    ],
    intake: { ...pooled, samples: [] },
    intakeWcu: input.intakeWcu,
    intakeRcu: input.intakeRcu,
    withoutEmail: bill({ intake, traffic: batchesOfOne(input.withoutEmail), email: false, bookkeeper }),
    withEmail: bill({ intake, traffic: batchesOfOne(input.withEmail), email: true, bookkeeper }),
    ...(input.bookkeeper ? { bookkeeperRuntime: input.bookkeeper, bookkeeper: bookkeeperCost(input.bookkeeper) } : {}),
  };
}

/**
 * The queue's traffic at a sustained rate: the SQS requests and batch sizes the local pipeline
 * made (test/bench/batching.ts), the consumer's duration and units at that batch size from the
 * in-process timings of one message and of a batch of ten (./consumer-batch.ts), interpolated
 * linearly for a mean batch between them.
 */
export function sustainedTraffic(
  batching: import("./batching").BatchingResult,
  single: RuntimeResult,
  ten: import("./consumer-batch").ConsumerBatchResult,
): QueueTraffic {
  const n = batching.messagesPerInvocation;
  const at = (one: number, tenOf: number) => one + ((tenOf - one) * (Math.min(Math.max(n, 1), ten.size) - 1)) / (ten.size - 1);
  return {
    label: `sustained ${batching.rate}/s, batches as they came`,
    sqs: { send: batching.perSubmission.send, receive: batching.perSubmission.receive, delete: batching.perSubmission.delete },
    consumerInvocations: batching.perSubmission.consumerInvocations,
    messagesPerInvocation: n,
    consumerBilledMs: at(single.consumer.meanBilledMs, ten.consumer.meanBilledMs),
    consumerLogBytesPerInvocation: at(single.consumer.logBytesPerInvocation, ten.consumer.logBytesPerInvocation),
    consumerWcu: at(single.consumerWork.wcu, ten.work.wcu / ten.size),
    consumerRcu: at(single.consumerWork.rcu, ten.work.rcu / ten.size),
  };
}

/** The sustained-rate bill without email, from the batches-of-one result's intake figures. */
export function sustainedBill(cost: CostResult, traffic: QueueTraffic, rate?: number): Bill {
  // The bookkeeper's batching window is about a second: at `rate` a second its batches hold about
  // that many records (at most 100, its batch size).
  const bookkeeper = cost.bookkeeperRuntime
    ? { runtime: cost.bookkeeperRuntime, batchSize: Math.max(1, Math.min(100, Math.round(rate ?? 1))) }
    : undefined;
  return bill({
    intake: { wcu: cost.intakeWcu, rcu: cost.intakeRcu, runtime: cost.intake },
    traffic,
    email: false,
    bookkeeper,
  });
}

/** The bookkeeper's measured work (BOOKKEEPER in functions/routes.ts): per batch, at the batch sizes measured. */
export interface BookkeeperRuntime {
  /** Records per batch → the handler's runtime and its DynamoDB work for one batch of that size. */
  bySize: { batchSize: number; runtime: RuntimeStats; work: RecordingSummary }[];
}

/**
 * Times the bookkeeper's handler on synthesized stream batches of each size (stored submissions
 * of one form through one webhook, the common case), `runs` times each, and records one more
 * batch of each size for its DynamoDB work.
 */
export async function measureBookkeeperRuntime(options: {
  runs: number;
  sizes: readonly number[];
  recorderFactory: () => Recorder;
}): Promise<BookkeeperRuntime> {
  const { handler } = await import("../../functions/bookkeeping/keep-books");
  const { newId } = await import("../../lib/ids");
  const { makeSubmission } = await import("../support/submissions");
  const { storedRecord, streamEvent } = await import("../support/bookkeeping");
  const target = { id: newId("form"), orgId: newId("organization"), siteId: newId("site") };
  const webhookId = newId("webhook");
  const batch = (size: number) =>
    streamEvent(Array.from({ length: size }, () => storedRecord(makeSubmission(target, { webhookId }))));
  const context = { awsRequestId: "bench", functionName: "inlet-bookkeeper" };
  // One warm-up, as a warm Lambda instance would have had.
  await handler(batch(1), context);
  const bySize: BookkeeperRuntime["bySize"] = [];
  for (const batchSize of options.sizes) {
    const samples: RuntimeSample[] = [];
    let sampleLog = "";
    for (let i = 0; i < options.runs; i++) {
      const event = batch(batchSize);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const run = await captured(() => handler(event, context));
      samples.push({ durationMs: performance.now() - started, cpuMs: cpuSince(cpu), logBytes: run.bytes, logLines: run.lines });
      sampleLog ||= run.text;
    }
    const recorder = options.recorderFactory();
    let work: RecordingSummary;
    try {
      const event = batch(batchSize);
      work = (await recorder.run(() => captured(() => handler(event, context)))).summary;
    } finally {
      recorder.uninstall();
    }
    bySize.push({ batchSize, runtime: stats(samples, sampleLog.slice(0, 2000) || undefined), work });
  }
  return { bySize };
}

/**
 * The bookkeeper's figures for one batch of `batchSize` records: measured at that size, or
 * interpolated linearly between the nearest measured sizes (clamped to the measured range).
 */
function bookkeeperAt(bookkeeper: BookkeeperRuntime, batchSize: number) {
  const sizes = [...bookkeeper.bySize].sort((a, b) => a.batchSize - b.batchSize);
  if (sizes.length === 0) throw new Error("the bookkeeper was not measured");
  const figures = (b: BookkeeperRuntime["bySize"][number]) => ({
    billedMs: b.runtime.meanBilledMs,
    logBytes: b.runtime.logBytesPerInvocation,
    wcu: b.work.wcu,
  });
  const lower = [...sizes].reverse().find((b) => b.batchSize <= batchSize) ?? sizes[0];
  const upper = sizes.find((b) => b.batchSize >= batchSize) ?? sizes[sizes.length - 1];
  if (!lower || !upper) throw new Error("the bookkeeper was not measured");
  if (lower.batchSize === upper.batchSize) return figures(lower);
  const t = (batchSize - lower.batchSize) / (upper.batchSize - lower.batchSize);
  const a = figures(lower);
  const b = figures(upper);
  return {
    billedMs: a.billedMs + (b.billedMs - a.billedMs) * t,
    logBytes: a.logBytes + (b.logBytes - a.logBytes) * t,
    wcu: a.wcu + (b.wcu - a.wcu) * t,
  };
}

/**
 * The bookkeeper's lines of the bill for one million stored submissions at `batchSize` records
 * per batch: its invocations, its compute and its writes; its log bytes per submission go to the
 * bill's one log line. Its reads of the stream cost nothing: "GetRecords API calls invoked by AWS
 * Lambda as part of DynamoDB triggers are free" (https://aws.amazon.com/dynamodb/pricing/on-demand/,
 * "DynamoDB Streams").
 */
export function bookkeeperLines(bookkeeper: BookkeeperRuntime, batchSize: number): CostPart {
  const at = bookkeeperAt(bookkeeper, batchSize);
  const invocations = M / batchSize;
  const wcuPerSubmission = at.wcu / batchSize;
  const r = (n: number) => Math.round(n * 1000) / 1000;
  return {
    lines: [
      {
        item: "Lambda requests, bookkeeper",
        quantity: `1 per batch of ${batchSize}: ${r(1 / batchSize)} per submission`,
        usd: (invocations / M) * PRICES.lambdaPerMillionRequests,
      },
      computeLine("Lambda compute, bookkeeper", at.billedMs, BOOKKEEPER.memoryMb, 1 / batchSize),
      {
        item: "DynamoDB writes, bookkeeper",
        quantity: `${r(at.wcu)} WRU per batch of ${batchSize}: ${r(wcuPerSubmission)} per submission`,
        usd: wcuPerSubmission * PRICES.dynamodbPerMillionWriteUnits,
      },
    ],
    logBytes: (at.logBytes + systemLogBytesPerInvocation()) / batchSize,
  };
}

/** The bookkeeper's part of a bill (COST_PARTS): none when it was not measured. */
export function bookkeeperPart({ bookkeeper }: BillInput): CostPart {
  return bookkeeper ? bookkeeperLines(bookkeeper.runtime, bookkeeper.batchSize) : { lines: [], logBytes: 0 };
}

/** The bookkeeper's share of the bill per million submissions, at each measured batch size (its logs at the log price). */
export function bookkeeperCost(bookkeeper: BookkeeperRuntime) {
  return bookkeeper.bySize.map(({ batchSize }) => {
    const part = bookkeeperLines(bookkeeper, batchSize);
    const logUsd = ((part.logBytes * M) / 1e9) * PRICES.cloudwatchLogsPerGbIngested;
    return { batchSize, lines: part.lines, total: part.lines.reduce((sum, l) => sum + l.usd, 0) + logUsd };
  });
}

/**
 * A chat destination message (docs/notifications.md): the pipeline's work per destination, per
 * message, on top of the submission's own. Measured on a Slack destination of the fixture's form
 * pointing at a local stand-in (test/support/chat-receiver.ts), which answers in about a
 * millisecond: a real platform answers in 100-300 ms, which the consumer waits for and Lambda
 * bills, so `platformMs` is added to the billed duration (an estimate, not measured here).
 */
export interface DestinationMessageResult {
  /** The consumer on a delivery message: its attempt (build the message, post it, record it). */
  attempt: RuntimeStats;
  attemptWork: RecordingSummary;
  /** What fanning a submission out to the destination adds to the consumer's work on the submission. */
  fanOutWork: { wcu: number; rcu: number };
}

export async function measureDestinationMessage(options: {
  fixture: Fixture;
  runs: number;
  recorderFactory: () => Recorder;
  /** The consumer's work on a submission of the same form without the destination. */
  baseline: RecordingSummary;
}): Promise<DestinationMessageResult> {
  const { startChatReceiver } = await import("../support/chat-receiver");
  const { deliveryIdFor } = await import("../../lib/outbound/payload");
  const { handler } = await import("../../functions/consumer/process-queue");
  const consumer = handler as (event: SQSEvent) => Promise<unknown>;
  const { intake } = await loadHandlers();
  const slack = await startChatReceiver("slack");
  try {
    const formId = (await webhookItem(options.fixture.generic.id))?.formId as string;
    const created = await api("POST", `/api/v1/forms/${formId}/outbound-webhooks`, {
      token: options.fixture.owner.token,
      body: { kind: "slack", url: slack.url("/bench"), description: "bench" },
    });
    if (created.status !== 201) throw new Error(`destination creation failed: ${created.status} ${created.text}`);
    const endpointId = created.body.data.id as string;
    const submitted = async () => {
      const run = await invoke(intake, intakeEvent(options.fixture.generic, cleanSubmission()), "inlet-intake");
      if (run.statusCode !== 200) throw new Error(`intake answered ${run.statusCode}`);
      const id = run.json.submissionId as string;
      return { id, item: (await storedSubmission(id)) as unknown as Record<string, unknown> };
    };
    const deliveryEvent = (deliveryId: string): SQSEvent => {
      const base = streamInsertEvent({ pk: "x", sk: "x" });
      const record = base.Records[0] as SQSEvent["Records"][number];
      const body = { v: 1, kind: "delivery", deliveryId, attempt: 1, dueAt: new Date().toISOString(), token: "bench" };
      return {
        Records: [
          {
            ...record,
            body: JSON.stringify(body),
            messageAttributes: {
              "inlet-message-kind": { stringValue: "delivery", dataType: "String", stringListValues: [], binaryListValues: [] },
            },
          },
        ],
      };
    };
    const samples: RuntimeSample[] = [];
    const attemptOne = async () => {
      const sub = await submitted();
      await captured(() => consumer(streamInsertEvent(sub.item)));
      const cpu = process.cpuUsage();
      const started = performance.now();
      const run = await captured(() => consumer(deliveryEvent(deliveryIdFor(sub.id, endpointId))));
      return { durationMs: performance.now() - started, cpuMs: cpuSince(cpu), logBytes: run.bytes, logLines: run.lines };
    };
    await attemptOne();
    for (let i = 0; i < options.runs; i++) samples.push(await attemptOne());
    if (slack.requests("/bench").length !== options.runs + 1) throw new Error("the Slack stand-in did not get every message");
    if (slack.problems("/bench").some((p) => p.length > 0)) throw new Error("a bench message was not valid for Slack");

    const fanOutRecorder = options.recorderFactory();
    const sub = await submitted();
    let fanOut: RecordingSummary;
    try {
      fanOut = (await fanOutRecorder.run(() => captured(() => consumer(streamInsertEvent(sub.item))))).summary;
    } finally {
      fanOutRecorder.uninstall();
    }
    const attemptRecorder = options.recorderFactory();
    let attemptWork: RecordingSummary;
    try {
      attemptWork = (await attemptRecorder.run(() => captured(() => consumer(deliveryEvent(deliveryIdFor(sub.id, endpointId))))))
        .summary;
    } finally {
      attemptRecorder.uninstall();
    }
    // The form as it was: the measurements after this one (a confirmation's) fan out to no destination.
    const removed = await api("DELETE", `/api/v1/forms/${formId}/outbound-webhooks/${endpointId}`, {
      token: options.fixture.owner.token,
    });
    if (removed.status >= 300) throw new Error(`destination removal failed: ${removed.status} ${removed.text}`);
    return {
      attempt: stats(samples),
      attemptWork,
      fanOutWork: { wcu: fanOut.wcu - options.baseline.wcu, rcu: fanOut.rcu - options.baseline.rcu },
    };
  } finally {
    await slack.close();
  }
}

/** One million chat destination messages, line by line (docs/performance.md, "A chat destination message"). */
export function destinationMessageCost(result: DestinationMessageResult, platformMs = 200): Bill {
  const M = 1_000_000;
  const memoryGb = QUEUE_CONSUMER.memoryMb / 1024;
  const billedMs = result.attempt.meanBilledMs + platformMs;
  const gbS = (billedMs / 1000) * memoryGb * M;
  const wcu = result.fanOutWork.wcu + result.attemptWork.wcu;
  const rcu = result.fanOutWork.rcu + result.attemptWork.rcu;
  const logBytes = result.attempt.logBytesPerInvocation + systemLogBytesPerInvocation();
  const r = (n: number) => Math.round(n * 100) / 100;
  const lines: CostLine[] = [
    {
      item: "SQS requests (the delivery message)",
      quantity: "3 per message (send, receive, delete)",
      usd: 3 * PRICES.sqsPerMillionRequests,
    },
    { item: "Lambda requests, consumer (the attempt)", quantity: "1 per message", usd: PRICES.lambdaPerMillionRequests },
    {
      item: "Lambda compute, the attempt",
      quantity: `${r(result.attempt.meanBilledMs)} ms measured + ${platformMs} ms the platform's answer (estimate) x ${memoryGb * 1024} MB = ${Math.round(gbS)} GB-s`,
      usd: gbS * PRICES.lambdaArmPerGbSecond,
    },
    {
      item: "DynamoDB writes",
      quantity: `${wcu} WRU (fan-out ${result.fanOutWork.wcu}, attempt ${result.attemptWork.wcu})`,
      usd: wcu * PRICES.dynamodbPerMillionWriteUnits,
    },
    {
      item: "DynamoDB reads",
      quantity: `${rcu} RRU (fan-out ${result.fanOutWork.rcu}, attempt ${result.attemptWork.rcu})`,
      usd: rcu * PRICES.dynamodbPerMillionReadUnits,
    },
    {
      item: "CloudWatch Logs ingestion",
      quantity: `${Math.round(logBytes)} bytes per message = ${r((logBytes * M) / 1e9)} GB`,
      usd: ((logBytes * M) / 1e9) * PRICES.cloudwatchLogsPerGbIngested,
    },
  ];
  return {
    traffic: "one destination message",
    lines,
    total: lines.reduce((sum, l) => sum + l.usd, 0),
    logBytesPerSubmission: logBytes,
  };
}

/**
 * One million digests, line by line (docs/performance.md, "A digest"), from ./digest.ts: the
 * digest function's run with one member due (an upper bound: a run with many due members shares
 * its invocation and its due-index Query), its DynamoDB work, SES, the logs. The schedule's own
 * invocations (720 a month, whatever the number of digests) are not per digest.
 */
export function digestCost(result: import("./digest").DigestResult): Bill {
  const memoryGb = DIGESTS.memoryMb / 1024;
  const gbS = (result.run.meanBilledMs / 1000) * memoryGb * M;
  const logBytes = result.run.logBytesPerInvocation + systemLogBytesPerInvocation();
  const r = (n: number) => Math.round(n * 100) / 100;
  const lines: CostLine[] = [
    {
      item: "Lambda requests, the digest run",
      quantity: "at most 1 per digest (a run sends every digest due)",
      usd: PRICES.lambdaPerMillionRequests,
    },
    {
      item: "Lambda compute, the digest run",
      quantity: `${r(result.run.meanBilledMs)} ms x ${memoryGb * 1024} MB = ${Math.round(gbS)} GB-s`,
      usd: gbS * PRICES.lambdaArmPerGbSecond,
    },
    {
      item: "DynamoDB writes",
      quantity: `${result.work.wcu} WRU (the claim, its completion, the member's next due time)`,
      usd: result.work.wcu * PRICES.dynamodbPerMillionWriteUnits,
    },
    {
      item: "DynamoDB reads",
      quantity: `${result.work.rcu} RRU (due index, sites, forms, days, failing list, a page of the form)`,
      usd: result.work.rcu * PRICES.dynamodbPerMillionReadUnits,
    },
    { item: "SES, one digest email", quantity: "1 per digest", usd: PRICES.sesPerThousandEmails * 1000 },
    {
      item: "CloudWatch Logs ingestion",
      quantity: `${Math.round(logBytes)} bytes per digest = ${r((logBytes * M) / 1e9)} GB`,
      usd: ((logBytes * M) / 1e9) * PRICES.cloudwatchLogsPerGbIngested,
    },
  ];
  return { traffic: "one digest", lines, total: lines.reduce((sum, l) => sum + l.usd, 0), logBytesPerSubmission: logBytes };
}
