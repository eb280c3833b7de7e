import { randomUUID } from "node:crypto";
import { marshall } from "@aws-sdk/util-dynamodb";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context, SQSEvent } from "aws-lambda";
import type { RouteKey } from "../../functions/routes";

/** An HTTP API payload format 2.0 event, as API Gateway (and infra/local/gateway.ts) builds it. */
export function httpEvent(options: {
  routeKey: RouteKey;
  path: string;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  sourceIp?: string;
}): APIGatewayProxyEventV2 {
  const [method] = options.routeKey.split(" ") as [string];
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const type = (headers["content-type"] ?? "").split(";")[0]?.trim() ?? "";
  const textual = type === "" || type === "application/json" || type.endsWith("+json") || type.startsWith("text/");
  const now = new Date();
  const event: APIGatewayProxyEventV2 = {
    version: "2.0",
    routeKey: options.routeKey,
    rawPath: options.path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers,
    requestContext: {
      accountId: "000000000000",
      apiId: "bench",
      domainName: "inlet.example.com",
      domainPrefix: "inlet",
      http: {
        method,
        path: options.path,
        protocol: "HTTP/1.1",
        sourceIp: options.sourceIp ?? "198.51.100.7",
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: options.routeKey,
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: options.body !== undefined && !textual,
  };
  if (options.query && Object.keys(options.query).length) event.queryStringParameters = options.query;
  if (options.pathParameters) event.pathParameters = options.pathParameters;
  if (options.body !== undefined) event.body = textual ? options.body : Buffer.from(options.body).toString("base64");
  return event;
}

export function lambdaContext(name: string, memoryMb = 256, timeoutSeconds = 10): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${name}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: "bench",
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export type HttpHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

export interface HttpResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  json: any;
}

export async function invoke(handler: HttpHandler, event: APIGatewayProxyEventV2, name = "bench"): Promise<HttpResult> {
  const raw = (await handler(event, lambdaContext(name))) as APIGatewayProxyStructuredResultV2;
  const body = raw.body ?? "";
  let json: unknown;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  return { statusCode: raw.statusCode ?? 200, headers: (raw.headers ?? {}) as Record<string, string>, body, json };
}

/**
 * The SQS event the consumer gets for stored items: one table stream INSERT record per message,
 * as the pipe sends it (lib/pipeline/stream-record.ts), one message per item.
 */
export function streamInsertEvent(...items: Record<string, unknown>[]): SQSEvent {
  return { Records: items.map(streamInsertMessage) };
}

function streamInsertMessage(item: Record<string, unknown>): SQSEvent["Records"][number] {
  const record = {
    eventID: randomUUID().replace(/-/g, ""),
    eventName: "INSERT",
    eventVersion: "1.1",
    eventSource: "aws:dynamodb",
    awsRegion: "us-east-1",
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: marshall({ pk: item.pk, sk: item.sk }),
      NewImage: marshall(item, { removeUndefinedValues: true }),
      SequenceNumber: String(Date.now()),
      SizeBytes: JSON.stringify(item).length,
      StreamViewType: "NEW_AND_OLD_IMAGES",
    },
    eventSourceARN: "arn:aws:dynamodb:us-east-1:000000000000:table/inlet/stream/2026-01-01T00:00:00.000",
  };
  return {
    messageId: randomUUID(),
    receiptHandle: randomUUID(),
    body: JSON.stringify(record),
    attributes: {
      ApproximateReceiveCount: "1",
      SentTimestamp: String(Date.now()),
      SenderId: "bench",
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:inlet-intake",
    awsRegion: "us-east-1",
  };
}
