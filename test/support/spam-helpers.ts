import { randomInt } from "node:crypto";
import { request } from "node:http";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { db, tableName } from "../../lib/aws/dynamodb";
import { keys } from "../../lib/store/keys";
import { type Account, api, baseUrl } from "./api";

/**
 * Helpers of the spam and captcha tests. Spam evidence is kept per client IP and the local
 * gateway takes the client IP from the socket, as API Gateway does: each test sends from its
 * own loopback address (Linux routes all of 127.0.0.0/8 to the loopback interface), so
 * counters and duplicate markers of other tests and files never mix with its own.
 */
export const freshIp = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

export const CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
/** What a browser sends with a form post: a Referer and a browser user agent. */
export const BROWSER = { referer: "https://forms.example.com/contact", "user-agent": CHROME_UA } as const;

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/**
 * One HTTP request to the local gateway from `ip`, with exactly the headers given (node:http
 * adds no User-Agent or Referer of its own).
 */
export function requestFrom(
  ip: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const url = new URL(path, baseUrl());
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        localAddress: ip,
        headers: { ...(options.headers ?? {}), ...(body ? { "content-length": String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export interface Hook {
  id: string;
  secretKey: string;
  siteId: string;
}

export async function newSite(
  owner: Account,
  options: { domain?: string; captcha?: Record<string, unknown> } = {},
): Promise<string> {
  const res = await api("POST", "/api/v1/sites", {
    token: owner.token,
    body: { name: "Spam test site", ...(options.domain ? { domain: options.domain } : {}) },
  });
  if (res.status !== 201) throw new Error(`site creation failed: ${res.status} ${res.text}`);
  const siteId = res.body.data.site.id as string;
  if (options.captcha) {
    const put = await api("PUT", `/api/v1/sites/${siteId}`, { token: owner.token, body: { captcha: options.captcha } });
    if (put.status !== 200) throw new Error(`captcha setup failed: ${put.status} ${put.text}`);
  }
  return siteId;
}

export async function newHook(owner: Account, siteId: string, source = "generic"): Promise<Hook> {
  const res = await api("POST", `/api/v1/sites/${siteId}/webhooks`, {
    token: owner.token,
    body: { name: `hook ${source}`, source },
  });
  if (res.status !== 201) throw new Error(`webhook creation failed: ${res.status} ${res.text}`);
  return { id: res.body.data.id, secretKey: res.body.data.secretKey, siteId };
}

export type Fields = Record<string, string | number | boolean | string[]>;

export const formEncode = (fields: Fields) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  return params.toString();
};

/**
 * Posts a submission to `hook` from `ip`: form-encoded (as an HTML form does) unless `json`,
 * with browser headers unless `headers` replaces them.
 */
export function submit(
  hook: Hook,
  ip: string,
  fields: Fields,
  options: { headers?: Record<string, string>; json?: unknown } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...(options.headers ?? BROWSER) };
  const body = options.json !== undefined ? JSON.stringify(options.json) : formEncode(fields);
  headers["content-type"] = options.json !== undefined ? "application/json" : "application/x-www-form-urlencoded";
  return requestFrom(ip, "POST", `/api/v1/incoming/${hook.id}?key=${encodeURIComponent(hook.secretKey)}`, { headers, body });
}

/** The stored submission item, straight from the table. */
export async function storedSubmission(submissionId: string): Promise<Record<string, any> | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.submission(submissionId), ConsistentRead: true }),
  );
  return out.Item;
}

/** Submits and returns the stored item; fails the test when the submission is not 200. */
export async function submitAndRead(
  hook: Hook,
  ip: string,
  fields: Fields,
  options: { headers?: Record<string, string>; json?: unknown } = {},
): Promise<Record<string, any>> {
  const res = await submit(hook, ip, fields, options);
  if (res.status !== 200) throw new Error(`submission failed: ${res.status} ${res.text}`);
  const item = await storedSubmission(res.body.submissionId);
  if (!item) throw new Error(`submission ${res.body.submissionId} was not stored`);
  return item;
}

export const signalNames = (item: Record<string, any>) => (item.spam.signals as { name: string }[]).map((s) => s.name).sort();

/**
 * Waits, when fewer than `margin` seconds are left in the current clock minute, for the next
 * one: per-IP counters use fixed windows aligned to the minute and the hour.
 */
export async function awayFromWindowEdge(windowSeconds: number, margin = 8): Promise<void> {
  const intoWindow = (Date.now() / 1000) % windowSeconds;
  const left = windowSeconds - intoWindow;
  if (left < margin) await new Promise((r) => setTimeout(r, left * 1000 + 100));
}

/** An HTTP API payload format 2.0 event for the intake route, as API Gateway sends it. */
export function intakeEvent(
  hook: Hook,
  sourceIp: string,
  body: string,
  headers: Record<string, string> = { ...BROWSER, "content-type": "application/x-www-form-urlencoded" },
): APIGatewayProxyEventV2 {
  const path = `/api/v1/incoming/${hook.id}`;
  return {
    version: "2.0",
    routeKey: "POST /api/v1/incoming/{webhookId}",
    rawPath: path,
    rawQueryString: `key=${encodeURIComponent(hook.secretKey)}`,
    headers,
    queryStringParameters: { key: hook.secretKey },
    pathParameters: { webhookId: hook.id },
    requestContext: {
      accountId: "000000000000",
      apiId: "test",
      domainName: "test.local",
      domainPrefix: "test",
      http: { method: "POST", path, protocol: "HTTP/1.1", sourceIp, userAgent: headers["user-agent"] ?? "" },
      requestId: `req-${randomInt(1e9)}`,
      routeKey: "POST /api/v1/incoming/{webhookId}",
      stage: "$default",
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body: Buffer.from(body).toString("base64"),
    isBase64Encoded: true,
  };
}

export const lambdaContext = { awsRequestId: "req-test", getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
