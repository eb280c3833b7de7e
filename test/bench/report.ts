import { describeCalls } from "../support/recording-client";
import type { BatchingResult } from "./batching";
import type { ColdStartResult } from "./cold-start";
import type { ConsumerBatchResult } from "./consumer-batch";
import type { Bill, CostResult, RuntimeResult } from "./cost";
import type { ScenarioResult } from "./scenarios";
import { checkBars } from "./scenarios";
import type { ThroughputLevel } from "./throughput";

/** A plain text table: columns padded to their widest cell, numbers right-aligned. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => String(c)))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const numeric = headers.map((_, i) => rows.every((r) => typeof r[i] === "number" || /^[\d.,x%$ -]+$/.test(String(r[i]))));
  const line = (r: string[]) => r.map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join("  ");
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (n: number) => n.toFixed(1);
const mark = (ok: boolean | null) => (ok === null ? "-" : ok ? "ok" : "MISS");

export function coldStartReport(r: ColdStartResult): string {
  const rows = r.functions.map((f) => [
    f.function,
    kb(f.bundleBytes),
    ms(f.loadMs),
    ms(f.referenceLoadMs),
    `${f.ratio.toFixed(2)}x`,
    ms(f.cpuMs),
    `${f.cpuRatio.toFixed(2)}x`,
    f.reference.replace("ref/", ""),
    `${mark(f.bundleOk)}/${mark(f.loadOk)}/${mark(f.cpuLoadOk)}`,
  ]);
  const refs = [...r.references, ...r.layers].map((x) => [x.name, kb(x.bundleBytes), ms(x.loadMs), ms(x.cpuMs), ms(x.processMs)]);
  const misses = r.functions
    .filter((f) => f.contributors)
    .map((f) => `  ${f.function}: ${f.contributors?.map((c) => `${c.module} ${kb(c.bytes)} KB`).join(", ")}`);
  return [
    `Cold start: median of ${r.runs} fresh node ${r.node} processes per bundle, interleaved (load average ${r.loadAverage.before
      .map((n) => n.toFixed(1))
      .join("/")} before, ${r.loadAverage.after.map((n) => n.toFixed(1)).join("/")} after)`,
    table(["function", "KB", "load ms", "ref ms", "ratio", "cpu ms", "cpu ratio", "reference", "size/load/cpu"], rows),
    "",
    table(["reference or layer", "KB", "load ms", "cpu ms", "process ms"], refs),
    ...(misses.length ? ["", "Largest contributors of the functions that miss a bar:", ...misses] : []),
  ].join("\n");
}

export function scenarioReport(results: ScenarioResult[]): string {
  const rows = results.map((s) => {
    const bars = checkBars(s);
    return [
      s.name,
      s.status,
      s.summary.calls.length,
      s.summary.sequentialRoundTrips,
      s.summary.wcu,
      s.summary.gsiWcu,
      s.summary.rcu,
      s.storedBytes ?? "-",
      bars.length ? bars.map((b) => `${b.bar}: ${b.ok ? "ok" : "MISS"}`).join("; ") : "-",
    ];
  });
  const details = results.map((s) => `${s.name}\n${describeCalls(s.summary)}`);
  return [
    "DynamoDB work per request (units by DynamoDB's documented rules, not DynamoDB Local's)",
    table(["scenario", "status", "calls", "sequential", "WCU", "of which GSI", "RCU", "stored B", "bars"], rows),
    "",
    "Calls, by sequential position [depth]:",
    ...details,
  ].join("\n");
}

/** The bars on the bill (docs/performance.md, sections 14 and 23): batches of one, and a sustained 50 submissions a second. */
export const COST_BARS = { batchesOfOne: 8.0, sustained: 6.5 } as const;

const usd = (n: number) => `$${n.toFixed(3)}`;

export function costReport(
  cost: CostResult,
  without: RuntimeResult,
  withEmail: RuntimeResult,
  batch?: ConsumerBatchResult,
): string {
  // One row per line of any bill, in the order they first appear.
  const bills: Bill[] = [cost.withoutEmail, ...(cost.sustained ? [cost.sustained] : []), cost.withEmail];
  const items = [...new Set(bills.flatMap((b) => b.lines.map((l) => l.item)))];
  const cell = (b: Bill, item: string) => {
    const line = b.lines.find((l) => l.item === item);
    return line ? [line.quantity, usd(line.usd)] : ["-", "-"];
  };
  const rows = items.map((item) => [item, ...bills.flatMap((b) => cell(b, item))]);
  const headers = ["line", ...bills.flatMap((b, i) => [`${b.traffic}${i === bills.length - 1 ? ", one email" : ""}`, "USD"])];
  const runtime = (label: string, r: RuntimeResult) =>
    `consumer ${label}: p50 ${ms(r.consumer.p50Ms)} ms (CPU ${ms(r.consumer.cpuP50Ms)} ms; mean billed ${ms(r.consumer.meanBilledMs)}), ${Math.round(r.consumer.logBytesPerInvocation)} log bytes, ` +
    `${r.consumerWork.wcu} WRU, ${r.consumerWork.rcu} RRU`;
  const i = cost.intake;
  const verdict = (b: Bill | undefined, bar: number) =>
    b ? `$${b.total.toFixed(2)} (bar $${bar.toFixed(2)}: ${b.total <= bar ? "ok" : "MISS"})` : "not measured (--only batching)";
  return [
    "Cost per million submissions",
    `  intake: p50 ${ms(i.p50Ms)} ms (CPU ${ms(i.cpuP50Ms)} ms), p99 ${ms(i.p99Ms)} ms, mean billed ${ms(i.meanBilledMs)} ms over ${i.runs} runs, ${Math.round(i.logBytesPerInvocation)} log bytes`,
    `  ${runtime("without email", without)}`,
    `  ${runtime("with one email", withEmail)}`,
    ...(batch
      ? [
          `  consumer, batch of ${batch.size}: p50 ${ms(batch.consumer.p50Ms)} ms (mean billed ${ms(batch.consumer.meanBilledMs)}), ${Math.round(batch.consumer.logBytesPerInvocation)} log bytes, ` +
            `${batch.work.wcu} WRU (${(batch.work.wcu / batch.size).toFixed(2)} per submission), ${batch.work.rcu} RRU`,
        ]
      : []),
    table(headers, rows.concat([["total", ...bills.flatMap((b) => ["", `$${b.total.toFixed(2)}`])]])),
    `without email, batches of one: ${verdict(cost.withoutEmail, COST_BARS.batchesOfOne)}; sustained: ${verdict(cost.sustained, COST_BARS.sustained)}; with one email $${cost.withEmail.total.toFixed(2)}`,
    ...(cost.bookkeeper ?? []).map(
      (b) =>
        `  bookkeeper at batches of ${b.batchSize}: ${b.lines.map((l) => `${l.item.replace(", bookkeeper", "")} ${l.quantity} $${l.usd.toFixed(3)}`).join("; ")}; total $${b.total.toFixed(3)}`,
    ),
    ...cost.assumptions.map((a) => `  - ${a}`),
  ].join("\n");
}

export function batchingReport(b: BatchingResult): string {
  const sizes = b.pipeline.bySize
    .map((n, size) => (n > 0 ? `${size}: ${n}` : ""))
    .filter(Boolean)
    .join(", ");
  return [
    `The queue's batches at ${b.rate} submissions a second for ${b.seconds} s (local pipeline: stream follower, one queue poller with the deployed batch size and window)`,
    `  sent ${b.sent}, answered 200 ${b.answered}, stored ${b.stored}; ${b.achievedRate.toFixed(1)} answers a second; every stored submission handled ${(b.drainedMs / 1000).toFixed(1)} s after the first request`,
    `  consumer: ${b.pipeline.invocations} invocations for ${b.pipeline.messages} messages (${b.messagesPerInvocation.toFixed(2)} a batch; by size ${sizes}); ${b.consumerBilledMsUnderLoad.toFixed(1)} ms billed per invocation in the stack under this load`,
    `  per submission: ${b.perSubmission.consumerInvocations.toFixed(3)} consumer invocations; SQS ${b.perSubmission.sqs.toFixed(3)} requests (send ${b.perSubmission.send.toFixed(3)}, receive ${b.perSubmission.receive.toFixed(3)} of which empty ${(b.pipeline.emptyReceives / b.stored).toFixed(3)}, delete ${b.perSubmission.delete.toFixed(3)})`,
    `  a lone submission afterwards: its lead stored ${b.loneProcessedMs.toFixed(0)} ms after its answer`,
  ].join("\n");
}

/**
 * `callsPerIntake` (the clean-intake scenario's DynamoDB calls) turns requests per second into
 * DynamoDB calls per second, the local stack's real bottleneck (DynamoDB Local's JVM).
 */
export function throughputReport(levels: ThroughputLevel[], callsPerIntake?: number): string {
  const rows = levels.flatMap((l) => [
    [
      l.concurrency,
      "single PutItem",
      l.singlePut.rps.toFixed(1),
      l.singlePut.p50Ms,
      l.singlePut.p99Ms,
      l.singlePut.errors,
      "-",
      "-",
    ],
    ...(l.intakeCalls
      ? [
          [
            l.concurrency,
            "intake's calls alone",
            l.intakeCalls.rps.toFixed(1),
            l.intakeCalls.p50Ms,
            l.intakeCalls.p99Ms,
            l.intakeCalls.errors,
            "-",
            "-",
          ],
        ]
      : []),
    [
      l.concurrency,
      "intake",
      l.intake.rps.toFixed(1),
      l.intake.p50Ms,
      l.intake.p99Ms,
      l.intake.errors,
      `${(l.share * 100).toFixed(0)}%` +
        (callsPerIntake ? ` (calls ${(l.share * callsPerIntake * 100).toFixed(0)}%)` : "") +
        (l.callsShare !== undefined ? `; of its calls alone ${(l.callsShare * 100).toFixed(0)}%` : ""),
      `200s ${l.count.answered}, stored ${l.count.stored}, lost ${l.count.lost}, doubled ${l.count.doubled}, in flight at stop ${l.count.unanswered}; ` +
        `reference bar (40% of one PutItem): ${l.ok ? "ok" : "MISS"}` +
        (l.callsOk !== undefined ? `; docs bar (50% of its calls alone): ${l.callsOk ? "ok" : "MISS"}` : ""),
    ],
  ]);
  return [
    "Throughput of the local stack (autocannon, same gateway; share = intake rps / single-PutItem rps, and / the rps of its DynamoDB calls alone" +
      (callsPerIntake ? `; calls = the same in DynamoDB calls/s, ${callsPerIntake} per intake request` : "") +
      ")",
    table(["conc.", "route", "rps", "p50 ms", "p99 ms", "errors", "share", "count"], rows),
  ].join("\n");
}

/** The cost of one million chat destination messages (./cost.ts, destinationMessageCost). */
export function destinationMessageReport(d: import("./cost").DestinationMessageResult & { bill: import("./cost").Bill }): string {
  return [
    "Cost per million chat destination messages",
    `  attempt: p50 ${ms(d.attempt.p50Ms)} ms (CPU ${ms(d.attempt.cpuP50Ms)} ms), mean billed ${ms(d.attempt.meanBilledMs)} ms over ${d.attempt.runs} runs, ${Math.round(d.attempt.logBytesPerInvocation)} log bytes`,
    table(
      ["line", "quantity", "USD"],
      d.bill.lines.map((l) => [l.item, l.quantity, `$${l.usd.toFixed(3)}`]),
    ),
    `total $${d.bill.total.toFixed(2)} per million messages (one per destination per lead)`,
  ].join("\n");
}

/** The cost of one million digests (./digest.ts, ./cost.ts digestCost). */
export function digestReport(d: import("./digest").DigestResult & { bill: import("./cost").Bill }): string {
  return [
    "Cost per million digests",
    `  run with one digest: p50 ${ms(d.run.p50Ms)} ms (CPU ${ms(d.run.cpuP50Ms)} ms), mean billed ${ms(d.run.meanBilledMs)} ms over ${d.run.runs} runs, ${Math.round(d.run.logBytesPerInvocation)} log bytes; ${d.work.calls.length} DynamoDB calls, ${d.work.sequentialRoundTrips} sequential`,
    table(
      ["line", "quantity", "USD"],
      d.bill.lines.map((l) => [l.item, l.quantity, `$${l.usd.toFixed(3)}`]),
    ),
    `total $${d.bill.total.toFixed(2)} per million digests (one site, one form, ${d.submissions} submissions that day)`,
  ].join("\n");
}
