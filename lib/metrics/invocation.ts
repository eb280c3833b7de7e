import { AsyncLocalStorage } from "node:async_hooks";
import { countingCalls } from "../aws/call-count";
import type { MetricName } from "./catalog";
import { type Dimensions, type EmfEntry, emfDocuments } from "./emf";
import { writeRecord } from "./stdout";

/**
 * What one invocation gathers until it ends: its business metrics (written once, as EMF, when
 * it ends) and the figures of its "request done" line. Held in an AsyncLocalStorage rather than
 * module state: Lambda runs one invocation per process at a time, but the local stack runs every
 * function in one process, concurrently, and each request must still count only its own work.
 * Code that runs outside an invocation (scripts, the bench's direct calls) records nothing.
 */
interface Invocation {
  dynamoCalls: number;
  metrics: EmfEntry[];
  /** The intake's webhook source, once known (the dimension of its received/rejected counts). */
  source?: string;
}

const storage = new AsyncLocalStorage<Invocation>();

/** True for the first invocation of this process (a Lambda execution environment's cold start). */
let coldStart = true;

/** Adds `value` to a counter of this invocation (summed into one value per dimension set). */
export function count(name: MetricName, dimensions: Dimensions = {}, value = 1): void {
  storage.getStore()?.metrics.push({ name, unit: "Count", dimensions, value });
}

/** Records one sample of a timing metric (kept as a list: CloudWatch computes its percentiles). */
export function measure(name: MetricName, milliseconds: number, dimensions: Dimensions = {}): void {
  storage.getStore()?.metrics.push({ name, unit: "Milliseconds", dimensions, value: Math.round(milliseconds) });
}

/** Remembers the intake's webhook source for the counts written when the request ends. */
export function setSource(source: string): void {
  const invocation = storage.getStore();
  if (invocation) invocation.source = source;
}

/** The source set by `setSource` in this invocation, if any. */
export function currentSource(): string | undefined {
  return storage.getStore()?.source;
}

export interface Done {
  route: string;
  status: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface InvocationInfo {
  requestId: string;
  /**
   * Not written: each function logs to a log group of its own (Logs Insights' `@log`), and the
   * line's route names its function (functions/routes.ts); in AWS the name is up to 64 bytes
   * more on every line (docs/performance.md, section 14).
   */
  functionName?: string;
}

/**
 * Runs one invocation: `fn` with its own recorder, then, whatever it answered or threw, the
 * invocation's metrics as EMF (one document per dimension set, the first carried by the
 * "request done" line itself) and that one "request done" line: the request id, route, status,
 * latency, cold start and DynamoDB call count. No time: CloudWatch Logs stamps every event
 * (`@timestamp`), so a time of our own was 34 bytes per line for nothing. Nothing from the request itself (no body, header, id, secret or address)
 * is in either. Both are written whatever LOG_LEVEL says: they are the operator's record, not
 * debugging output. `done` reads the route and status from the answer (or the error).
 */
export async function instrument<T>(info: InvocationInfo, fn: () => Promise<T>, done: (outcome: Outcome<T>) => Done): Promise<T> {
  const started = performance.now();
  const cold = coldStart;
  coldStart = false;
  const invocation: Invocation = { dynamoCalls: 0, metrics: [] };
  // `done` runs inside the invocation too: it may record metrics of the answer (the intake's).
  // lib/aws/call-count.ts counts the DynamoDB calls into `invocation.dynamoCalls`.
  const { outcome, route, status } = await countingCalls(invocation, () =>
    storage.run(invocation, async () => {
      let outcome: Outcome<T>;
      try {
        outcome = { ok: true, value: await fn() };
      } catch (error) {
        outcome = { ok: false, error };
      }
      return { outcome, ...done(outcome) };
    }),
  );
  // The first EMF document rides on the "request done" line: CloudWatch extracts only the
  // metrics its `_aws` block declares and ignores the line's other fields, so an invocation with
  // metrics writes one line fewer (~250 bytes of log ingestion; docs/performance.md, section 11).
  // A further dimension set (a spam submission's `by`) needs a document of its own, since one
  // document holds one value per dimension name.
  const [first, ...rest] = emfDocuments(invocation.metrics, Date.now());
  for (const document of rest) writeRecord({ ...document, requestId: info.requestId });
  writeRecord({
    ...first,
    level: "info",
    message: "request done",
    requestId: info.requestId,
    route,
    status,
    latencyMs: Math.round(performance.now() - started),
    coldStart: cold,
    dynamoCalls: invocation.dynamoCalls,
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

interface LambdaContextLike {
  awsRequestId: string;
  functionName: string;
}

/**
 * For a function outside the HTTP chain (the preflight, the catch-all 404): runs it under
 * `instrument`, its route the route key it serves.
 */
export function withRequestLine<E, R extends { statusCode?: number }>(
  route: string,
  handler: (event: E) => Promise<R>,
): (event: E, context: LambdaContextLike) => Promise<R> {
  return (event, context) =>
    instrument(
      { requestId: context.awsRequestId, functionName: context.functionName },
      () => handler(event),
      (outcome) => ({ route, status: outcome.ok ? (outcome.value.statusCode ?? 200) : 500 }),
    );
}
