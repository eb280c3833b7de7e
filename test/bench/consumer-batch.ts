import { performance } from "node:perf_hooks";
import type { SQSEvent } from "aws-lambda";
import { storedSubmission } from "../support/intake";
import type { Recorder, RecordingSummary } from "../support/recording-client";
import { captured, cpuSince, type RuntimeSample, type RuntimeStats, stats } from "./cost";
import { invoke, streamInsertEvent } from "./events";
import { cleanSubmission, type Fixture, intakeEvent, loadHandlers } from "./scenarios";

/**
 * The queue consumer on a full batch, timed in this process as test/bench/cost.ts times it on one
 * message: `size` clean submissions stored through the intake handler (not timed), then one
 * consumer invocation with their `size` stream records, `runs` times; one more batch under the
 * recorder for its DynamoDB work. The sustained-rate bill reads it (cost.ts, `sustainedTraffic`).
 */
export interface ConsumerBatchResult {
  size: number;
  /** Per invocation (one batch). */
  consumer: RuntimeStats;
  /** The DynamoDB work of one batch (divide by `size` for a submission's). */
  work: RecordingSummary;
}

export async function measureConsumerBatch(options: {
  fixture: Fixture;
  size: number;
  runs: number;
  recorderFactory: () => Recorder;
}): Promise<ConsumerBatchResult> {
  const { intake } = await loadHandlers();
  const consumer = (await import("../../functions/consumer/process-queue")).handler as (event: SQSEvent) => Promise<unknown>;
  const storeBatch = async () => {
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < options.size; i++) {
      const run = await captured(() => invoke(intake, intakeEvent(options.fixture.generic, cleanSubmission()), "inlet-intake"));
      if (run.value.statusCode !== 200) throw new Error(`intake answered ${run.value.statusCode}: ${run.value.body}`);
      const item = await storedSubmission(run.value.json.submissionId as string);
      if (!item) throw new Error("the submission is not stored");
      items.push(item as unknown as Record<string, unknown>);
    }
    return streamInsertEvent(...items);
  };
  const samples: RuntimeSample[] = [];
  let log = "";
  // The first batch warms the instance up, as cost.ts's single message does.
  await captured(async () => consumer(await storeBatch()));
  for (let i = 0; i < options.runs; i++) {
    const event = await storeBatch();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const run = await captured(() => consumer(event));
    const durationMs = performance.now() - started;
    const failures = (run.value as { batchItemFailures?: unknown[] }).batchItemFailures ?? [];
    if (failures.length > 0) throw new Error(`the consumer failed ${failures.length} of the batch: ${run.text.slice(0, 400)}`);
    samples.push({ durationMs, cpuMs: cpuSince(cpu), logBytes: run.bytes, logLines: run.lines });
    log ||= run.text;
  }
  const recorder = options.recorderFactory();
  let work: RecordingSummary;
  try {
    const event = await storeBatch();
    ({ summary: work } = await recorder.run(async () => {
      await captured(() => consumer(event));
    }));
  } finally {
    recorder.uninstall();
  }
  return { size: options.size, consumer: stats(samples, log.slice(0, 2000) || undefined), work };
}
