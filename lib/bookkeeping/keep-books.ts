import type { DynamoDBRecord } from "aws-lambda";
import { describeError, log } from "../log";
import { COUNT_STEP, countSubmissions } from "./count-submissions";
import { FILTER_STEP, filterSubmissions } from "./filter-submissions";
import { FOLLOW_OUT_STEP, followOut } from "./follow-out";
import { FORWARD_STEP, followForwardOnly } from "./forward-only";
import { indexSubmissions, SEARCH_STEP } from "./index-submissions";
import { type StreamBatch, streamBatch } from "./stream-batch";

/**
 * The bookkeeper (functions/bookkeeping/keep-books.ts): the jobs that follow the table stream
 * directly, each one a step over the same parsed batch, in order. A job makes its own writes
 * exactly once per record with a checkpoint of its own (keyed by the batch and the job's name,
 * lib/store/bookkeeping.ts), so when a later job fails and Lambda retries the batch, the jobs
 * that finished skip it; or makes only idempotent writes (the search index), which a retry
 * simply repeats. A failure throws: the event source mapping retries the whole batch
 * (infra/bookkeeping.ts), blocking its shard until it succeeds or is given up.
 */
export interface BookkeepingStep {
  name: string;
  run(batch: StreamBatch): Promise<Record<string, number>>;
}

export const STEPS: readonly BookkeepingStep[] = [
  { name: COUNT_STEP, run: async (batch) => ({ ...(await countSubmissions(batch)) }) },
  { name: SEARCH_STEP, run: indexSubmissions },
  // The inbox's filter entries (lib/bookkeeping/filter-submissions.ts).
  { name: FILTER_STEP, run: filterSubmissions },
  // A removed submission's emails and deliveries (lib/bookkeeping/follow-out.ts).
  { name: FOLLOW_OUT_STEP, run: followOut },
  { name: FORWARD_STEP, run: followForwardOnly },
];

export interface BatchReport {
  records: number;
  unreadable: number;
  /** Each step's figures (records applied, skipped as already applied, transactions, ...). */
  steps: Record<string, Record<string, number>>;
}

export async function keepBooks(
  records: readonly DynamoDBRecord[],
  steps: readonly BookkeepingStep[] = STEPS,
): Promise<BatchReport> {
  const report: BatchReport = { records: records.length, unreadable: 0, steps: {} };
  const batch = streamBatch(records);
  if (!batch) return report;
  for (const unreadable of batch.unreadable) {
    log.error("bookkeeper: a stream record cannot be read", unreadable);
  }
  report.unreadable = batch.unreadable.length;
  for (const step of steps) {
    try {
      report.steps[step.name] = await step.run(batch);
    } catch (error) {
      log.error("bookkeeper: a job failed; the batch comes back", {
        step: step.name,
        batchId: batch.id,
        ...describeError(error),
      });
      throw error;
    }
  }
  return report;
}
