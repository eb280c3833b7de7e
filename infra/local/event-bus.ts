import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";
import type { Context } from "aws-lambda";
import { EMAIL_EVENTS } from "../../functions/routes";
import { describeError, log } from "../../lib/log";
import { EMAIL_EVENTS_FUNCTION_RETRIES, emailEventsPattern } from "../email-events-rule";
import { matchesPattern } from "../stream-filter-match";
import { localGrant, runAs } from "./grants";

/**
 * EventBridge's default bus and the SES events rule, on this machine. The SES emulator publishes
 * no events, so whoever stands in for SES (a test, an operator trying the dashboard) puts them
 * here with EventBridge's own call, PutEvents (JSON 1.1: `POST /`, `X-Amz-Target:
 * AWSEvents.PutEvents`, `{"Entries":[{"Source","DetailType","Detail","Time"?,"Resources"?}]}`).
 * Each entry becomes the event EventBridge would build (version, id, detail-type, source,
 * account, time, region, resources, detail); those that match the rule's pattern
 * (infra/email-events-rule.ts, the deployed rule's) go to the email events function, held to its
 * table grant, retried as Lambda retries an asynchronous invocation.
 *
 * Two differences from AWS, both for tests: the answer comes once the function has run (AWS
 * answers at once and delivers later), and `aws.` sources are accepted (AWS keeps them for its
 * services).
 */

type EventHandler = (event: unknown, context: Context) => Promise<unknown>;

interface Entry {
  Source?: unknown;
  DetailType?: unknown;
  Detail?: unknown;
  Time?: unknown;
  Resources?: unknown;
}

const ACCOUNT = "000000000000";

function answer(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/x-amz-json-1.1" });
  res.end(JSON.stringify(body));
}

/** PutEvents' `Time`: epoch seconds or an ISO timestamp; EventBridge writes it to the second. */
function timeOf(value: unknown): string {
  const date = typeof value === "number" ? new Date(value * 1000) : typeof value === "string" ? new Date(value) : new Date();
  return (Number.isNaN(date.getTime()) ? new Date() : date).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export async function startEventBus(options: { region: string; configurationSet: string; port?: number }) {
  // The handler reads the config, set by the caller before the bus starts (as the consumer's).
  const url = new URL(`../../functions/${EMAIL_EVENTS.handler}.ts`, import.meta.url);
  const { handler } = (await import(url.href)) as { handler: EventHandler };
  const pattern = emailEventsPattern(options.configurationSet);
  const grant = localGrant(EMAIL_EVENTS);

  async function deliver(event: Record<string, unknown>): Promise<void> {
    for (let attempt = 0; attempt <= EMAIL_EVENTS_FUNCTION_RETRIES; attempt++) {
      const context = {
        functionName: "inlet-email-events",
        awsRequestId: randomUUID(),
        getRemainingTimeInMillis: () => EMAIL_EVENTS.timeoutSeconds * 1000,
      } as Context;
      try {
        await runAs(EMAIL_EVENTS.handler, grant, () => handler(event, context));
        return;
      } catch (error) {
        log.error("event bus: the email events function failed", { attempt, ...describeError(error) });
      }
    }
    log.error("event bus: event given up after Lambda's retries (in AWS: the dead-letter queue)", { id: event.id });
  }

  async function putEvents(entries: Entry[]) {
    const results: ({ EventId: string } | { ErrorCode: string; ErrorMessage: string })[] = [];
    for (const entry of entries) {
      let detail: unknown;
      try {
        detail = typeof entry.Detail === "string" ? JSON.parse(entry.Detail) : undefined;
      } catch {
        detail = undefined;
      }
      if (typeof entry.Source !== "string" || typeof entry.DetailType !== "string" || typeof detail !== "object" || !detail) {
        results.push({ ErrorCode: "MalformedDetail", ErrorMessage: "Source, DetailType and a JSON object Detail are required" });
        continue;
      }
      const event = {
        version: "0",
        id: randomUUID(),
        "detail-type": entry.DetailType,
        source: entry.Source,
        account: ACCOUNT,
        time: timeOf(entry.Time),
        region: options.region,
        resources: Array.isArray(entry.Resources) ? entry.Resources : [],
        detail,
      };
      if (matchesPattern(pattern, event)) await deliver(event);
      results.push({ EventId: event.id });
    }
    return { FailedEntryCount: results.filter((r) => "ErrorCode" in r).length, Entries: results };
  }

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== "POST" || req.headers["x-amz-target"] !== "AWSEvents.PutEvents") {
        return answer(res, 400, { __type: "UnknownOperationException", message: "Only AWSEvents.PutEvents is served here" });
      }
      let body: { Entries?: unknown };
      try {
        body = JSON.parse(await text(req)) as { Entries?: unknown };
      } catch {
        return answer(res, 400, { __type: "SerializationException", message: "The body is not JSON" });
      }
      // PutEvents takes 1 to 10 entries.
      if (!Array.isArray(body.Entries) || body.Entries.length < 1 || body.Entries.length > 10) {
        return answer(res, 400, { __type: "ValidationException", message: "Entries: 1 to 10 entries" });
      }
      answer(res, 200, await putEvents(body.Entries as Entry[]));
    })().catch((error: unknown) => {
      log.error("event bus: request failed", describeError(error));
      if (!res.headersSent) answer(res, 500, { __type: "InternalException", message: "internal error" });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
