import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { keys } from "../../lib/store/keys";
import type { Submission } from "../../lib/store/submissions";
import { GSI1 } from "../../lib/store/table-definition";
import { type Account, type ApiResponse, api, createSite, signupOwner } from "./api";

export const intakePath = (webhookId: string) => `/api/v1/incoming/${webhookId}`;

export interface TestWebhook {
  id: string;
  secretKey: string;
}

export interface IntakeTarget {
  owner: Account;
  siteId: string;
  webhook: TestWebhook;
}

export async function newWebhook(
  owner: Account,
  siteId: string,
  body: Record<string, unknown> = { name: "Contact form" },
): Promise<TestWebhook> {
  const res = await api("POST", `/api/v1/sites/${siteId}/webhooks`, { token: owner.token, body });
  if (res.status !== 201) throw new Error(`webhook creation failed: ${res.status} ${res.text}`);
  return { id: res.body.data.id, secretKey: res.body.data.secretKey };
}

/** Changes a site's settings (domain, isActive, referencePrefix, ...) through the API. */
export async function updateSite(owner: Account, siteId: string, body: Record<string, unknown>): Promise<void> {
  const res = await api("PUT", `/api/v1/sites/${siteId}`, { token: owner.token, body });
  if (res.status !== 200) throw new Error(`site update failed: ${res.status} ${res.text}`);
}

export async function updateWebhook(target: IntakeTarget, body: Record<string, unknown>, webhookId = target.webhook.id) {
  const res = await api("PUT", `/api/v1/sites/${target.siteId}/webhooks/${webhookId}`, { token: target.owner.token, body });
  if (res.status !== 200) throw new Error(`webhook update failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** One owner, one site and one webhook: what most intake tests start from. */
export async function intakeTarget(
  label: string,
  webhook: Record<string, unknown> = { name: "Contact form" },
  owner?: Account,
): Promise<IntakeTarget> {
  const account = owner ?? (await signupOwner(label));
  const siteId = await createSite(account, `${label} site`);
  return { owner: account, siteId, webhook: await newWebhook(account, siteId, webhook) };
}

/** A second webhook on an existing target's site. */
export async function siblingWebhook(target: IntakeTarget, body: Record<string, unknown> = { name: "Other" }) {
  return { ...target, webhook: await newWebhook(target.owner, target.siteId, body) };
}

interface PostOptions {
  /** A JSON body (sent as application/json unless contentType says otherwise). */
  json?: unknown;
  /** Pairs sent as application/x-www-form-urlencoded (URLSearchParams, as a browser encodes them). */
  form?: [string, string][] | Record<string, string>;
  /** Bytes sent as they are, with `contentType`. */
  raw?: string | Buffer;
  contentType?: string;
  /** The secret in `?key=` (default: the webhook's own). `null` sends none. */
  key?: string | null;
  headers?: Record<string, string>;
  /** Extra query string, without `?`. */
  query?: string;
  /** Send exactly `headers` (a browser's `Sec-Fetch-Mode: navigate`, which fetch() replaces). */
  exactHeaders?: boolean;
  /** Another gateway's URL (a second function instance, test/local-stack/http/support/gateway-process.ts). */
  base?: string;
}

/** POST /incoming/{id}: the secret in `?key=` unless told otherwise. */
export function postIntake(webhook: TestWebhook | string, options: PostOptions = {}): Promise<ApiResponse> {
  const id = typeof webhook === "string" ? webhook : webhook.id;
  const secret = options.key === undefined ? (typeof webhook === "string" ? undefined : webhook.secretKey) : options.key;
  const params = [secret !== undefined && secret !== null ? `key=${encodeURIComponent(secret)}` : "", options.query ?? ""]
    .filter(Boolean)
    .join("&");
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let rawBody: string | Buffer | undefined;
  if (options.raw !== undefined) {
    rawBody = options.raw;
  } else if (options.form !== undefined) {
    rawBody = new URLSearchParams(options.form as Record<string, string>).toString();
    headers["content-type"] ??= "application/x-www-form-urlencoded";
  } else if (options.json !== undefined) {
    rawBody = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  if (options.contentType !== undefined) headers["content-type"] = options.contentType;
  return api("POST", `${intakePath(id)}${params ? `?${params}` : ""}`, {
    ...(rawBody !== undefined ? { rawBody } : {}),
    headers,
    exactHeaders: options.exactHeaders ?? false,
    ...(options.base ? { base: options.base } : {}),
  });
}

/**
 * Runs `count` calls with at most `limit` in flight. The local stack does a few hundred DynamoDB
 * writes a second; a burst far beyond that only queues requests until the gateway's 10 s
 * function timeout, which tests the machine, not the service.
 */
export async function inParallel<T>(count: number, limit: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

/** The last lines of the local stack's log: attached to a failure so a 5xx explains itself. */
export function stackLogTail(lines = 40): string {
  const path = process.env.INLET_STACK_LOG;
  if (!path) return "(INLET_STACK_LOG is not set)";
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch (error) {
    return `(cannot read ${path}: ${(error as Error).message})`;
  }
}

/** Every unhandled-error entry the intake routes wrote to the stack log so far. */
export function intakeErrorsInStackLog(): string[] {
  const path = process.env.INLET_STACK_LOG;
  if (!path) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.includes("/api/v1/incoming/") && /"level":"error"|handler threw/.test(line));
}

/** The stack log's entries for one request (a 5xx body carries its requestId), else its tail. */
export function stackLogFor(res: ApiResponse): string {
  const requestId = res.body?.error?.requestId as string | undefined;
  const path = process.env.INLET_STACK_LOG;
  if (requestId && path) {
    const lines = readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line.includes(requestId));
    if (lines.length) return lines.join("\n");
  }
  return stackLogTail();
}

/** Fails with the response and, on a 5xx, what the stack logged for it. */
export function expectStatus(res: ApiResponse, status: number, code?: string): void {
  const ok = res.status === status && (code === undefined || res.body?.error?.code === code);
  if (!ok) {
    throw new Error(
      `expected ${status}${code ? ` ${code}` : ""}, got ${res.status} ${res.text.slice(0, 500)}` +
        (res.status >= 500 ? `\n--- stack log ---\n${stackLogFor(res)}` : ""),
    );
  }
}

/** A 200 submission result (fails with the response and, on a 5xx, the stack log). */
export function accepted(res: ApiResponse): { submissionId: string; referenceId: string; fieldsMapped: string[] } {
  expectStatus(res, 200);
  return res.body;
}

/** The reference a browser's thank-you page shows (docs/intake.md, "Browser answers"). */
export function pageReference(res: ApiResponse): string {
  expectStatus(res, 200);
  const match = /Your reference: <strong>([A-Z0-9]+-\d+)<\/strong>/.exec(res.text);
  if (!match) throw new Error(`no reference on the page: ${res.text.slice(0, 500)}`);
  return match[1] as string;
}

/** The submission a browser's thank-you page names, found in its webhook's form. */
export async function submissionOnPage(res: ApiResponse, webhookId: string): Promise<SubmissionItem> {
  const reference = pageReference(res);
  const form = await linkedForm(webhookId);
  const stored = (await formSubmissions(form.id)).find((s) => s.referenceId === reference);
  if (!stored) throw new Error(`no submission ${reference}`);
  return stored;
}

export type SubmissionItem = Submission & {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  type: string;
  isSpam: boolean;
};

export async function storedSubmission(submissionId: string): Promise<SubmissionItem | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.submission(submissionId), ConsistentRead: true }),
  );
  return out.Item as SubmissionItem | undefined;
}

/** Every submission of a form, through its GSI partition (what a form's list reads). */
export async function formSubmissions(formId: string): Promise<SubmissionItem[]> {
  const items: SubmissionItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: GSI1,
        KeyConditionExpression: "gsi1pk = :pk",
        ExpressionAttributeValues: { ":pk": keys.submissionIndexPartition(formId) },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...((out.Items ?? []) as SubmissionItem[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

export async function webhookItem(webhookId: string): Promise<Record<string, any> | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhook(webhookId), ConsistentRead: true }));
  return out.Item;
}

export async function formItem(formId: string): Promise<Record<string, any> | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.form(formId), ConsistentRead: true }));
  return out.Item;
}

/** The form a webhook feeds (after its first submission, the auto-created one). */
export async function linkedForm(webhookId: string): Promise<Record<string, any>> {
  const formId = (await webhookItem(webhookId))?.formId;
  if (!formId) throw new Error(`webhook ${webhookId} has no form`);
  const form = await formItem(formId);
  if (!form) throw new Error(`form ${formId} not found`);
  return form;
}

/** Headers a desktop Chromium sends with a form submission (no Origin on same-origin GETs; always on POST). */
export const CHROMIUM_HEADERS = {
  "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  accept:
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
  "accept-language": "en-US,en;q=0.9",
  "cache-control": "max-age=0",
  origin: "https://www.example.com",
  referer: "https://www.example.com/contact",
  "sec-fetch-dest": "document",
  "sec-fetch-mode": "navigate",
  "sec-fetch-site": "cross-site",
  "sec-fetch-user": "?1",
  "upgrade-insecure-requests": "1",
} as const;

/**
 * application/x-www-form-urlencoded exactly as the HTML standard's serializer (and so Chromium)
 * writes it: UTF-8 bytes, `*-._` and alphanumerics kept, space as `+`, everything else `%XX`
 * upper-case, and line breaks in values normalized to CRLF first.
 */
export function chromiumUrlencoded(entries: [string, string][]): string {
  const encode = (s: string) => {
    let out = "";
    for (const byte of Buffer.from(s.replace(/\r\n|\r|\n/g, "\r\n"), "utf8")) {
      const ch = String.fromCharCode(byte);
      if (/[A-Za-z0-9*\-._]/.test(ch)) out += ch;
      else if (byte === 0x20) out += "+";
      else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
    return out;
  };
  return entries.map(([name, value]) => `${encode(name)}=${encode(value)}`).join("&");
}

export interface FilePart {
  name: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

/**
 * multipart/form-data byte for byte as Chromium builds it: boundary `----WebKitFormBoundary` and
 * 16 alphanumerics, CRLF line ends, `Content-Disposition: form-data; name="..."` (line breaks in
 * names normalized to CRLF, then `"`, CR and LF escaped as %22, %0D, %0A), file parts with `filename=` and `Content-Type`, and
 * the closing delimiter followed by CRLF.
 */
export function chromiumMultipart(parts: ([string, string] | FilePart)[]): { body: Buffer; contentType: string } {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const boundary = `----WebKitFormBoundary${[...randomBytes(16)].map((b) => alphabet[b % 62]).join("")}`;
  const escapeField = (s: string) =>
    s
      .replace(/\r\n|\r|\n/g, "\r\n")
      .replace(/"/g, "%22")
      .replace(/\r/g, "%0D")
      .replace(/\n/g, "%0A");
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (Array.isArray(part)) {
      const [name, value] = part;
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${escapeField(name)}"\r\n\r\n`));
      chunks.push(Buffer.from(value.replace(/\r\n|\r|\n/g, "\r\n"), "utf8"));
    } else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${escapeField(part.name)}"; filename="${escapeField(part.filename)}"\r\n` +
            `Content-Type: ${part.contentType}\r\n\r\n`,
        ),
      );
      chunks.push(part.content);
    }
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A Google Ads lead-form webhook body shaped like the platform's published samples. */
export function adsLead(overrides: Record<string, unknown> = {}, columns?: unknown[]): Record<string, unknown> {
  return {
    lead_id: `TeSter-123-ABCDEFGHIJKLMNOPQRSTUVWXYZ-${randomBytes(6).toString("hex")}`,
    user_column_data: columns ?? [
      { column_name: "Full Name", string_value: "FirstName LastName", column_id: "FULL_NAME" },
      { column_name: "User Phone", string_value: "+16505550123", column_id: "PHONE_NUMBER" },
      { column_name: "User Email", string_value: "test@example.com", column_id: "EMAIL" },
      { column_name: "Company Name", string_value: "CompanyName", column_id: "COMPANY_NAME" },
    ],
    api_version: "1.0",
    form_id: 40000000000,
    campaign_id: 12345678901,
    adgroup_id: 20000000000,
    creative_id: 30000000000,
    gcl_id: "EAIaIQobChMI-test-gclid",
    is_test: true,
    ...overrides,
  };
}

/** The browser-like headers most intake tests send, so the spam score stays out of the way. */
export const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", referer: "https://example.com/contact" };

/** The accepted result of an intake and the submission it stored (which must exist). */
export async function submitted(res: Awaited<ReturnType<typeof postIntake>>) {
  const result = accepted(res);
  const stored = await storedSubmission(result.submissionId);
  if (!stored) throw new Error(`submission ${result.submissionId} was answered 200 but is not in the table`);
  return { result, stored };
}

/**
 * Nothing was stored for the webhook: no form, or one without submissions (so the bookkeeper,
 * which counts stored submissions from the table stream, has nothing to count).
 */
export async function expectNothingStored(t: IntakeTarget) {
  const item = await webhookItem(t.webhook.id);
  expect(item).toBeDefined();
  if (item?.formId) expect(await formSubmissions(item.formId)).toEqual([]);
}
