import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The AWS calls of the current invocation, for its "request done" line (lib/metrics/invocation.ts
 * runs each invocation under `countingCalls`). Here, in lib/aws, so that the clients count their
 * calls without knowing anything of metrics. Outside an invocation nothing is counted.
 */
export interface CallCount {
  dynamoCalls: number;
}

const storage = new AsyncLocalStorage<CallCount>();

export const countingCalls = <T>(count: CallCount, fn: () => T): T => storage.run(count, fn);

/** Counts one DynamoDB call in the current invocation. */
export function countDynamoCall(): void {
  const count = storage.getStore();
  if (count) count.dynamoCalls++;
}
