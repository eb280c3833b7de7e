import { performance } from "node:perf_hooks";
import type { Context } from "aws-lambda";
import { EMAIL_EVENTS, QUEUE_CONSUMER } from "../../functions/routes";
import { EMAIL_TAGS } from "../../lib/notifications/suppression";
import { api } from "../support/api";
import { webhookItem } from "../support/intake";
import type { Recorder, RecordingSummary } from "../support/recording-client";
import { sesEventDetail } from "../support/ses-events";
import {
  type CostLine,
  captured,
  PLATFORM_LOG_BYTES_PER_INVOCATION,
  PRICES,
  type RuntimeResult,
  type RuntimeSample,
  type RuntimeStats,
  stats,
} from "./cost";
import type { Fixture } from "./scenarios";

/**
 * The cost model's line for a confirmation email (docs/performance.md, section 3; docs/email.md):
 * what one confirmation adds to a submission's processing, measured. The consumer is timed and
 * its DynamoDB units recorded on the fixture's form with its confirmation on (and no notification
 * address), against the same form with neither (`measureRuntime` of ./cost.ts, both ways); the
 * email then brings SES's events, here a `Send` and a `Delivery` (the usual fate), handed to the
 * email events function in this process as EventBridge delivers them, timed and recorded.
 */

/** The events a delivered email brings (SES: one `Send`, one `Delivery` per email of one recipient). */
export const EVENTS_PER_CONFIRMATION = 2;

/** Turns the fixture form's confirmation on (its site on example.com, the bench's Referer) and its notifications off. */
export async function confirmOnSubmissions(fixture: Fixture): Promise<void> {
  const formId = (await webhookItem(fixture.generic.id))?.formId as string | undefined;
  if (!formId) throw new Error("the form webhook has no form yet");
  const token = fixture.owner.token;
  const site = await api("PUT", `/api/v1/sites/${fixture.siteId}`, { token, body: { domain: "example.com" } });
  if (site.status !== 200) throw new Error(`site update failed: ${site.status} ${site.text}`);
  const form = await api("PUT", `/api/v1/forms/${formId}`, {
    token,
    body: { settings: { notifyEmails: [], confirmation: { enabled: true } } },
  });
  if (form.status !== 200) throw new Error(`form update failed: ${form.status} ${form.text}`);
}

export interface EventsResult {
  runtime: RuntimeStats;
  /** The DynamoDB work of one confirmation's events (both of them). */
  work: RecordingSummary;
}

type EventsHandler = (event: unknown, context: Context) => Promise<{ statusCode: number }>;

/** SES's event of `type` about a confirmation, in EventBridge's envelope. */
function eventOf(type: "Send" | "Delivery", formId: string, submissionId: string, n: number) {
  const to = `bench-confirmed-${n}@example.com`;
  const tags = { [EMAIL_TAGS.kind]: "confirmation", [EMAIL_TAGS.form]: formId, [EMAIL_TAGS.submission]: submissionId };
  const { detailType, detail } = sesEventDetail(type, { messageId: `bench-${submissionId}-${n}`, destination: [to], tags });
  return {
    version: "0",
    id: `bench-${n}-${type}`,
    "detail-type": detailType,
    source: "aws.ses",
    account: "0",
    time: new Date().toISOString(),
    region: "us-east-1",
    resources: [],
    detail,
  };
}

/**
 * Times the email events function on `runs` confirmations' events (a Send, then a Delivery, each
 * an invocation), then records one more confirmation's under `recorder`.
 */
export async function measureConfirmationEvents(options: {
  fixture: Fixture;
  runs: number;
  recorder: () => Recorder;
}): Promise<EventsResult> {
  const handler = (await import("../../functions/email-events/record-suppressions")).handler as unknown as EventsHandler;
  const formId = (await webhookItem(options.fixture.generic.id))?.formId as string;
  const context = {
    functionName: "inlet-email-events",
    awsRequestId: "bench",
    getRemainingTimeInMillis: () => 10_000,
  } as Context;
  const samples: RuntimeSample[] = [];
  let sampleLog = "";
  const one = async (n: number) => {
    const submissionId = `sub_bench${String(n).padStart(17, "0")}`;
    for (const type of ["Send", "Delivery"] as const) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const run = await captured(() => handler(eventOf(type, formId, submissionId, n), context));
      const durationMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      if (run.value.statusCode !== 1) throw new Error(`the ${type} event recorded ${run.value.statusCode} recipients`);
      samples.push({ durationMs, cpuMs: (used.user + used.system) / 1000, logBytes: run.bytes, logLines: run.lines });
      if (!sampleLog && run.text) sampleLog = run.text;
    }
  };
  await one(0); // a warm instance
  samples.length = 0;
  for (let n = 1; n <= options.runs; n++) await one(n);
  const recorder = options.recorder();
  try {
    const { summary } = await recorder.run(() => one(options.runs + 1));
    return { runtime: stats(samples, sampleLog.slice(0, 2000) || undefined), work: summary };
  } finally {
    recorder.uninstall();
  }
}

export interface ConfirmationCost {
  assumptions: string[];
  lines: CostLine[];
  total: number;
}

/**
 * One million confirmation emails, line by line: what each adds to the consumer (`withConfirmation`
 * against `without`, both from ./cost.ts's `measureRuntime`), SES's price, and its events.
 */
export function confirmationCostPerMillion(input: {
  without: RuntimeResult;
  withConfirmation: RuntimeResult;
  events: EventsResult;
}): ConfirmationCost {
  const M = 1_000_000;
  const r = (n: number) => Math.round(n * 100) / 100;
  const consumerGb = QUEUE_CONSUMER.memoryMb / 1024;
  const eventsGb = EMAIL_EVENTS.memoryMb / 1024;
  const deltaMs = Math.max(0, input.withConfirmation.consumer.meanBilledMs - input.without.consumer.meanBilledMs);
  const deltaWcu = input.withConfirmation.consumerWork.wcu - input.without.consumerWork.wcu;
  const deltaRcu = input.withConfirmation.consumerWork.rcu - input.without.consumerWork.rcu;
  const consumerGbS = (deltaMs / 1000) * consumerGb * M;
  const eventsGbS = (input.events.runtime.meanBilledMs / 1000) * eventsGb * M * EVENTS_PER_CONFIRMATION;
  const logBytes =
    Math.max(0, input.withConfirmation.consumer.logBytesPerInvocation - input.without.consumer.logBytesPerInvocation) +
    EVENTS_PER_CONFIRMATION * (input.events.runtime.logBytesPerInvocation + PLATFORM_LOG_BYTES_PER_INVOCATION);
  const logGb = (logBytes * M) / 1e9;
  const lines: CostLine[] = [
    { item: "SES, one confirmation email", quantity: "1 per confirmation", usd: PRICES.sesPerThousandEmails * 1000 },
    {
      item: "Lambda compute, consumer (added)",
      quantity: `${r(deltaMs)} ms x ${QUEUE_CONSUMER.memoryMb} MB = ${Math.round(consumerGbS)} GB-s`,
      usd: consumerGbS * PRICES.lambdaArmPerGbSecond,
    },
    {
      item: "DynamoDB writes, consumer (added)",
      quantity: `${deltaWcu} WRU (claim, day's marker, the email's record and its index entry)`,
      usd: deltaWcu * PRICES.dynamodbPerMillionWriteUnits,
    },
    {
      item: "DynamoDB reads, consumer (added)",
      quantity: `${deltaRcu} RRU (the site)`,
      usd: deltaRcu * PRICES.dynamodbPerMillionReadUnits,
    },
    {
      item: "Lambda requests, SES events",
      quantity: `${EVENTS_PER_CONFIRMATION} per confirmation (Send, Delivery)`,
      usd: EVENTS_PER_CONFIRMATION * PRICES.lambdaPerMillionRequests,
    },
    {
      item: "Lambda compute, SES events",
      quantity: `${EVENTS_PER_CONFIRMATION} x ${r(input.events.runtime.meanBilledMs)} ms x ${EMAIL_EVENTS.memoryMb} MB = ${Math.round(eventsGbS)} GB-s`,
      usd: eventsGbS * PRICES.lambdaArmPerGbSecond,
    },
    {
      item: "DynamoDB writes, SES events",
      quantity: `${input.events.work.wcu} WRU for both (of which ${input.events.work.gsiWcu} index)`,
      usd: input.events.work.wcu * PRICES.dynamodbPerMillionWriteUnits,
    },
    {
      item: "CloudWatch Logs ingestion (added)",
      quantity: `${Math.round(logBytes)} bytes per confirmation = ${r(logGb)} GB`,
      usd: logGb * PRICES.cloudwatchLogsPerGbIngested,
    },
  ];
  return {
    assumptions: [
      "per confirmation sent: the consumer's added work on a form that confirms and does not notify, against one that does neither (both measured, warm)",
      `its SES events: ${EVENTS_PER_CONFIRMATION} (Send and Delivery; a bounce or a delay adds one more each), each an invocation of the email events function (measured in process)`,
      "EventBridge: SES's events on the default bus and the rule's deliveries to Lambda are not charged (AWS service events); a refused confirmation costs the consumer its claim and reads, no email",
      `log bytes: the consumer's added bytes and the events function's, plus ${PLATFORM_LOG_BYTES_PER_INVOCATION} bytes of START/END/REPORT per event invocation (estimate)`,
    ],
    lines,
    total: lines.reduce((sum, line) => sum + line.usd, 0),
  };
}

const ms = (n: number) => n.toFixed(1);

export function confirmationCostReport(cost: ConfirmationCost, withConfirmation: RuntimeResult, events: EventsResult): string {
  const width = Math.max(...cost.lines.map((l) => l.item.length));
  return [
    "Cost per million confirmation emails (on top of the submissions')",
    `  consumer with a confirmation: p50 ${ms(withConfirmation.consumer.p50Ms)} ms, mean billed ${ms(withConfirmation.consumer.meanBilledMs)} ms, ${withConfirmation.consumerWork.wcu} WRU, ${withConfirmation.consumerWork.rcu} RRU`,
    `  SES events function: p50 ${ms(events.runtime.p50Ms)} ms, mean billed ${ms(events.runtime.meanBilledMs)} ms per event, ${Math.round(events.runtime.logBytesPerInvocation)} log bytes`,
    ...cost.lines.map((l) => `  ${l.item.padEnd(width)}  ${l.quantity}  $${l.usd.toFixed(3)}`),
    `  total $${cost.total.toFixed(2)} per million confirmations`,
    ...cost.assumptions.map((a) => `  - ${a}`),
  ].join("\n");
}
