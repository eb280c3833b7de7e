import type { Context } from "aws-lambda";
import { runDigests } from "../../lib/digests/run";
import { withRequestLine } from "../../lib/metrics/invocation";
import * as z from "../../lib/validation";

/**
 * The digest schedule's run (DIGESTS in functions/routes.ts; infra/digests.ts schedules it every
 * hour, infra/local/digest-schedule.ts on a timer locally): every member whose digest is due by
 * the scheduled time gets it (lib/digests/run.ts). The event carries the scheduled time (`time`,
 * EventBridge Scheduler's `<aws.scheduler.scheduled-time>`), so a retried run acts as the run it
 * retries; without one, now. Its "request done" line has the route `digests` and, as its status,
 * the number of digests sent. Any digest that failed fails the run (after the others were sent),
 * so the function's error alarm says so; the failed ones stay due for the next run.
 */
const scheduled = z.object({ time: z.optional(z.iso.datetime({ offset: true })) });

export const handler = (event: unknown, context: Context) =>
  withRequestLine("digests", async (e: unknown) => {
    const parsed = scheduled.safeParse(e);
    const at = parsed.success && parsed.data.time ? Date.parse(parsed.data.time) : Date.now();
    const summary = await runDigests(at, { deadline: Date.now() + context.getRemainingTimeInMillis() });
    if (summary.failed > 0) throw new Error(`${summary.failed} of ${summary.members} due digests failed: see the log`);
    return { statusCode: summary.sent };
  })(event, context);
