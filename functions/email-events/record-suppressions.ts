import type { Context } from "aws-lambda";
import { withRequestLine } from "../../lib/metrics/invocation";
import { recordEmailEvent } from "../../lib/notifications/email-events";

/**
 * SES's bounce and complaint events for the stack's configuration set, from EventBridge
 * (EMAIL_EVENTS in functions/routes.ts; infra/notifications.ts): each hard bounce or complaint of
 * a notification is recorded on its form, whose notifications then skip the address
 * (lib/notifications/email-events.ts). Its "request done" line has the route `ses-events` and, as
 * its status, the number of recipients recorded. A failure throws: EventBridge invokes it
 * asynchronously, so Lambda retries it twice, then puts the event in the SES events dead-letter
 * queue, whose alarm says so (infra/notifications.ts).
 */
export const handler = (event: unknown, context: Context) =>
  withRequestLine("ses-events", async (e: unknown) => {
    const { recorded } = await recordEmailEvent(e);
    return { statusCode: recorded };
  })(event, context);
