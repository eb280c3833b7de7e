import { performance } from "node:perf_hooks";
import type { SQSEvent } from "aws-lambda";
import { QUEUE_CONSUMER, type RouteDef, route } from "../../functions/routes";
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
}): CostResult {
  // The intake does the same work in both: one bill, from all its runs.
  const pooled = stats([...input.withoutEmail.intake.samples, ...input.withEmail.intake.samples]);
  const intake = { wcu: input.intakeWcu, rcu: input.intakeRcu, runtime: pooled };
  return {
    assumptions: assumptions(),
    intake: { ...pooled, samples: [] },
    intakeWcu: input.intakeWcu,
    intakeRcu: input.intakeRcu,
    withoutEmail: bill({ intake, traffic: batchesOfOne(input.withoutEmail), email: false }),
    withEmail: bill({ intake, traffic: batchesOfOne(input.withEmail), email: true }),
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
export function sustainedBill(cost: CostResult, traffic: QueueTraffic): Bill {
  return bill({ intake: { wcu: cost.intakeWcu, rcu: cost.intakeRcu, runtime: cost.intake }, traffic, email: false });
}
