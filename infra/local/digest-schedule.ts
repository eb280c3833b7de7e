import { randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";
import { describeError, log } from "../../lib/log";

/**
 * The digest schedule on this machine: what EventBridge Scheduler does in AWS (infra/digests.ts).
 * At the top of every hour it invokes the digest function with the same event
 * (`{"time": "<the scheduled hour>"}`) and a context whose getRemainingTimeInMillis counts down the
 * function's timeout. One run at a time: a run still going when the next hour strikes makes that
 * hour's run wait for it, as the members it would serve stay due. A failed run is logged, as
 * Lambda's error count would show it.
 */

export type ScheduledHandler = (event: { time: string }, context: Context) => Promise<unknown>;

export interface DigestScheduleOptions {
  handler: ScheduledHandler;
  timeoutSeconds: number;
  memoryMb: number;
  /** The clock (tests move it); Date.now by default. */
  now?: () => number;
}

const HOUR_MS = 3_600_000;

/** The next top of the hour strictly after `ms`. */
export const nextHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS + HOUR_MS;

export function startDigestSchedule(options: DigestScheduleOptions) {
  const now = options.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const invoke = (time: number) => {
    const deadline = Date.now() + options.timeoutSeconds * 1000;
    const context: Context = {
      callbackWaitsForEmptyEventLoop: false,
      functionName: "inlet-digests-local",
      functionVersion: "$LATEST",
      invokedFunctionArn: "arn:aws:lambda:local:000000000000:function:inlet-digests-local",
      memoryLimitInMB: String(options.memoryMb),
      awsRequestId: randomUUID(),
      logGroupName: "/aws/lambda/inlet-digests-local",
      logStreamName: "local",
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    };
    running = running
      .then(() => options.handler({ time: new Date(time).toISOString() }, context))
      .then(
        () => undefined,
        (error: unknown) => log.error("digest run failed", describeError(error)),
      );
    return running;
  };

  const arm = () => {
    if (stopped) return;
    const at = nextHour(now());
    timer = setTimeout(
      () => {
        void invoke(at);
        arm();
      },
      Math.max(0, at - now()),
    );
    // The schedule alone keeps no process alive.
    timer.unref();
  };
  arm();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
