import { performance } from "node:perf_hooks";
import type { SQSEvent } from "aws-lambda";
import { QUEUE_CONSUMER, type RouteDef, route } from "../../functions/routes";
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
} as const;

/** Lambda's own START, END and REPORT lines per invocation (an estimate, not measured here: they are not our output). */
export const PLATFORM_LOG_BYTES_PER_INVOCATION = 300;
/**
 * SQS requests per submission: the pipe's SendMessage, the consumer's ReceiveMessage and its
 * DeleteMessageBatch, counted as if every batch held one message (the low-traffic worst case;
 * full batches of 10 bring it to 1.2).
 */
export const SQS_REQUESTS_PER_SUBMISSION = 3;
/** Consumer invocations per submission, on the same worst case (one message per batch). */
export const CONSUMER_INVOCATIONS_PER_SUBMISSION = 1;

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

const cpuSince = (start: NodeJS.CpuUsage) => {
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
  lines: CostLine[];
  total: number;
  logBytesPerSubmission: number;
}

export interface CostResult {
  assumptions: string[];
  /** The intake's runtime over all timed runs (both bills use it). */
  intake: RuntimeStats;
  withoutEmail: Bill;
  withEmail: Bill;
}

/** The bill for one million clean submissions, line by line, for one consumer behaviour. */
function bill(intake: { wcu: number; rcu: number; runtime: RuntimeStats }, consumer: RuntimeResult, email: boolean): Bill {
  const M = 1_000_000;
  const intakeEntry: RouteDef = route("POST /api/v1/incoming/{webhookId}");
  const intakeMemoryGb = (intakeEntry.memoryMb ?? 256) / 1024;
  const consumerMemoryGb = QUEUE_CONSUMER.memoryMb / 1024;
  const intakeGbS = (intake.runtime.meanBilledMs / 1000) * intakeMemoryGb * M;
  const consumerGbS = (consumer.consumer.meanBilledMs / 1000) * consumerMemoryGb * M * CONSUMER_INVOCATIONS_PER_SUBMISSION;
  const logBytes =
    intake.runtime.logBytesPerInvocation +
    consumer.consumer.logBytesPerInvocation * CONSUMER_INVOCATIONS_PER_SUBMISSION +
    PLATFORM_LOG_BYTES_PER_INVOCATION * (1 + CONSUMER_INVOCATIONS_PER_SUBMISSION);
  const logGb = (logBytes * M) / 1e9;
  const r = (n: number) => Math.round(n * 100) / 100;
  const lines: CostLine[] = [
    { item: "API Gateway HTTP API requests", quantity: "1 per submission", usd: PRICES.httpApiPerMillionRequests },
    { item: "Lambda requests, intake", quantity: "1 per submission", usd: PRICES.lambdaPerMillionRequests },
    {
      item: "Lambda compute, intake",
      quantity: `${r(intake.runtime.meanBilledMs)} ms x ${intakeMemoryGb * 1024} MB = ${Math.round(intakeGbS)} GB-s`,
      usd: intakeGbS * PRICES.lambdaArmPerGbSecond,
    },
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
    {
      item: "EventBridge Pipes (stream -> queue)",
      quantity: "1 event per non-spam submission",
      usd: PRICES.pipesPerMillionRequests,
    },
    {
      item: "SQS requests",
      quantity: `${SQS_REQUESTS_PER_SUBMISSION} per submission (send, receive, delete)`,
      usd: SQS_REQUESTS_PER_SUBMISSION * PRICES.sqsPerMillionRequests,
    },
    {
      item: "Lambda requests, consumer",
      quantity: `${CONSUMER_INVOCATIONS_PER_SUBMISSION} per submission (batches of one)`,
      usd: CONSUMER_INVOCATIONS_PER_SUBMISSION * PRICES.lambdaPerMillionRequests,
    },
    {
      item: "Lambda compute, consumer",
      quantity: `${r(consumer.consumer.meanBilledMs)} ms x ${consumerMemoryGb * 1024} MB = ${Math.round(consumerGbS)} GB-s`,
      usd: consumerGbS * PRICES.lambdaArmPerGbSecond,
    },
    {
      item: "DynamoDB writes, consumer",
      quantity: `${consumer.consumerWork.wcu} WRU per submission`,
      usd: consumer.consumerWork.wcu * PRICES.dynamodbPerMillionWriteUnits,
    },
    {
      item: "DynamoDB reads, consumer",
      quantity: `${consumer.consumerWork.rcu} RRU per submission`,
      usd: consumer.consumerWork.rcu * PRICES.dynamodbPerMillionReadUnits,
    },
    {
      item: "CloudWatch Logs ingestion",
      quantity: `${Math.round(logBytes)} bytes per submission = ${r(logGb)} GB`,
      usd: logGb * PRICES.cloudwatchLogsPerGbIngested,
    },
    ...(email
      ? [{ item: "SES, one notification email", quantity: "1 per submission", usd: PRICES.sesPerThousandEmails * 1000 }]
      : []),
  ];
  return { lines, total: lines.reduce((sum, l) => sum + l.usd, 0), logBytesPerSubmission: logBytes };
}

/**
 * One million clean submissions, without and with one notification email each: the intake's
 * units from the clean-intake scenario, its runtime and the consumer's (both measured) from a
 * form without and with a notification address.
 */
export function costPerMillion(input: {
  intakeWcu: number;
  intakeRcu: number;
  withoutEmail: RuntimeResult;
  withEmail: RuntimeResult;
}): CostResult {
  // The intake does the same work in both: one bill, from all its runs.
  const pooled = stats([...input.withoutEmail.intake.samples, ...input.withEmail.intake.samples]);
  const intake = () => ({ wcu: input.intakeWcu, rcu: input.intakeRcu, runtime: pooled });
  return {
    assumptions: [
      "one million clean (non-spam) submissions: every one goes through the pipeline",
      "DynamoDB units of the intake: the clean-intake scenario; of the consumer: one submission recorded on a form without, then with, a notification address (no outbound webhook endpoints)",
      "Lambda durations measured in process against DynamoDB Local (warm instances), mean of the runs, each rounded up to 1 ms as Lambda bills; arm64; memory from the route table; cold starts not included",
      `log bytes: what the handlers wrote to stdout/stderr (measured, at the default LOG_LEVEL), plus ${PLATFORM_LOG_BYTES_PER_INVOCATION} bytes of START/END/REPORT per invocation (estimate); GB = 10^9 bytes`,
      `queue: batches of one message (the low-traffic worst case): ${SQS_REQUESTS_PER_SUBMISSION} SQS requests and ${CONSUMER_INVOCATIONS_PER_SUBMISSION} consumer invocation per submission`,
      "not per submission, so not included: storage, DynamoDB Streams GetRecords by the pipe (polled per shard whatever the traffic), alarms, the DLQ",
    ],
    intake: { ...pooled, samples: [] },
    withoutEmail: bill(intake(), input.withoutEmail, false),
    withEmail: bill(intake(), input.withEmail, true),
  };
}
