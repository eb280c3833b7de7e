import type { Context } from "aws-lambda";
import { withRequestLine } from "../../lib/metrics/invocation";
import { recordEmailEvent } from "../../lib/notifications/email-events";

/**
 * SES's events for the stack's configuration set, from EventBridge (EMAIL_EVENTS in
 * functions/routes.ts; infra/notifications.ts, infra/email-events-rule.ts): each recipient's fate
 * recorded on its email, and each hard bounce or complaint of a form's email recorded on that
 * form, whose emails then skip the address (lib/notifications/email-events.ts). Its "request done"
 * line has the route `ses-events` and, as its status, the number of recipients whose fate was
 * written. A failure throws: EventBridge invokes it asynchronously, so Lambda retries it twice,
 * then puts the event in the SES events dead-letter queue, whose alarm says so
 * (infra/notifications.ts). Locally the stack's event bus invokes it (infra/local/event-bus.ts).
 */
export const handler = (event: unknown, context: Context) =>
  withRequestLine("ses-events", async (e: unknown) => {
    const { recorded } = await recordEmailEvent(e);
    return { statusCode: recorded };
  })(event, context);
