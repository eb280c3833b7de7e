import { randomUUID } from "node:crypto";
import { jest } from "@jest/globals";
import type { APIGatewayProxyEventV2, Context } from "aws-lambda";

/**
 * Runs a Lambda handler in this process and reads what it wrote to stdout for that invocation:
 * its EMF documents (lib/metrics/emf.ts) and its "request done" line, as CloudWatch would read
 * them. Lines are picked by the invocation's request id, which both carry.
 */
export interface Written {
  /** Every line the invocation wrote to stdout, as written. */
  raw: string;
  emf: EmfDocument[];
  done: Record<string, unknown>;
}

export interface EmfDocument extends Record<string, unknown> {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
}

export function testContext(functionName = "inlet-test-function"): Context {
  return {
    awsRequestId: `req-${randomUUID()}`,
    functionName,
    getRemainingTimeInMillis: () => 10_000,
  } as unknown as Context;
}

/** Every stdout line of an invocation, by request id (one capture for a whole file: concurrency-safe). */
const captured = new Map<string, string[]>();
let spy: { mockRestore(): void } | undefined;

/** Starts reading stdout (call in beforeAll); lines not written by an invocation pass through. */
export function captureStdout(): void {
  const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
  spy = jest.spyOn(process.stdout, "write").mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    const id = /"requestId":"(req-[0-9a-f-]+)"/.exec(text)?.[1];
    const lines = id === undefined ? undefined : captured.get(id);
    if (!lines) return write(chunk, ...rest);
    lines.push(text);
    return true;
  }) as typeof process.stdout.write);
}

export function stopCapture(): void {
  spy?.mockRestore();
}

export async function invokeAndRead<E, R>(
  handler: (event: E, context: Context) => Promise<R>,
  event: E,
  context: Context = testContext(),
): Promise<{ result: R; written: Written }> {
  const lines: string[] = [];
  captured.set(context.awsRequestId, lines);
  try {
    const result = await handler(event, context);
    const parsed = lines.flatMap((text) => text.split("\n").filter((line) => line.trim() !== "")).map((line) => JSON.parse(line));
    const done = parsed.filter((entry) => entry.message === "request done");
    if (done.length !== 1) throw new Error(`expected one "request done" line, got ${done.length}: ${lines.join("")}`);
    return {
      result,
      written: {
        raw: lines.join(""),
        emf: parsed.filter((entry) => entry._aws !== undefined),
        done: done[0] as Record<string, unknown>,
      },
    };
  } finally {
    captured.delete(context.awsRequestId);
  }
}

/**
 * The value of `metric` over the documents whose dimensions are exactly `dimensions` (a count:
 * the sum; a timing: its samples), and undefined when no document declares it so.
 */
export function metricValue(emf: EmfDocument[], metric: string, dimensions: Record<string, string> = {}): number[] | undefined {
  const values: number[] = [];
  let found = false;
  for (const document of emf) {
    for (const directive of document._aws.CloudWatchMetrics) {
      if (!directive.Metrics.some((m) => m.Name === metric)) continue;
      for (const set of directive.Dimensions) {
        const matches = set.length === Object.keys(dimensions).length && set.every((name) => document[name] === dimensions[name]);
        if (!matches) continue;
        found = true;
        const value = document[metric];
        values.push(...(Array.isArray(value) ? (value as number[]) : [value as number]));
      }
    }
  }
  return found ? values : undefined;
}

/** The names of every metric the documents declare. */
export const metricNames = (emf: EmfDocument[]) =>
  emf.flatMap((document) => document._aws.CloudWatchMetrics.flatMap((d) => d.Metrics.map((m) => m.Name))).sort();

/** An HTTP API payload format 2.0 event, as API Gateway sends it. */
export function httpEvent(
  routeKey: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; pathParameters?: Record<string, string>; sourceIp?: string } = {},
): APIGatewayProxyEventV2 {
  const [method = "GET"] = routeKey.split(" ");
  const headers = { "content-type": "application/json", ...options.headers };
  return {
    version: "2.0",
    routeKey,
    rawPath: path,
    rawQueryString: "",
    headers,
    ...(options.pathParameters ? { pathParameters: options.pathParameters } : {}),
    requestContext: {
      accountId: "000000000000",
      apiId: "test",
      domainName: "test.local",
      domainPrefix: "test",
      http: { method, path, protocol: "HTTP/1.1", sourceIp: options.sourceIp ?? "203.0.113.7", userAgent: "jest" },
      requestId: randomUUID(),
      routeKey,
      stage: "$default",
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    isBase64Encoded: false,
  };
}
