import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { checkLiteralHost, guardedLookup, parseTargetUrl, RefusedTarget } from "./ssrf";

/** What one HTTP attempt came to: a status code, or an error before any status arrived. */
export interface HttpAttempt {
  statusCode: number | null;
  /** Null for an attempt whose runner died before it could measure (./attempts.ts). */
  durationMs: number | null;
  /** Why no usable answer arrived (timeout, connection refused, refused address), or null. */
  error: string | null;
  /** The raw `Retry-After` header, when the receiver sent one. */
  retryAfter: string | null;
  /** The `Location` of a 3xx (reported, never followed). */
  location: string | null;
  /** The SSRF guard refused the target. */
  refused: boolean;
  /**
   * The start of the response body (BODY_KEPT bytes at most), for the chat platforms whose
   * "gone" answer is in the body (lib/outbound/chat/platforms.ts); never logged. Absent when
   * none arrived.
   */
  body?: string;
}

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}

/** How much of a response body is read (and discarded) before the socket is closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How much of it is kept: a platform's error code (`no_service`, `{"code": 10015}`) is at its start. */
const BODY_KEPT = 1024;

const header = (res: IncomingMessage, name: string) => {
  const value = res.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
};

/**
 * POSTs one delivery with node:http(s) (not fetch: its `lookup` hook is what pins the connection
 * to a checked address, see ./ssrf.ts). Redirects are never followed (node:http does not follow
 * them). `timeoutMs` bounds the whole exchange, from DNS to the last byte read. Never throws.
 */
export function postWebhook(options: SendOptions): Promise<HttpAttempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, refused = false): HttpAttempt => ({
    statusCode: null,
    durationMs: elapsed(),
    error,
    retryAfter: null,
    location: null,
    refused,
  });

  let url: URL;
  try {
    url = parseTargetUrl(options.url);
    checkLiteralHost(url, options.allowPrivate);
  } catch (error) {
    return Promise.resolve(failed((error as Error).message, error instanceof RefusedTarget));
  }

  return new Promise<HttpAttempt>((resolve) => {
    let settled = false;
    const finish = (result: HttpAttempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, {
      method: "POST",
      headers: { ...options.headers, "content-length": String(Buffer.byteLength(options.body)) },
      lookup: guardedLookup(options.allowPrivate),
      // A fresh connection per attempt: a pooled socket would skip the lookup (and its check).
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy(new Error(`timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);

    request.on("error", (error) => {
      finish(failed(error.message || String(error), error instanceof RefusedTarget));
    });
    request.on("response", (res) => {
      const statusCode = res.statusCode ?? 0;
      let read = 0;
      const kept: Buffer[] = [];
      const done = () =>
        finish({
          statusCode,
          durationMs: elapsed(),
          error: null,
          retryAfter: header(res, "retry-after"),
          location: statusCode >= 300 && statusCode < 400 ? header(res, "location") : null,
          refused: false,
          ...(read > 0 ? { body: Buffer.concat(kept).subarray(0, BODY_KEPT).toString("utf8") } : {}),
        });
      res.on("data", (chunk: Buffer) => {
        if (read < BODY_KEPT) kept.push(chunk);
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) {
          // Enough: the status is what counts; close rather than read a large body.
          done();
          res.destroy();
        }
      });
      res.on("end", done);
      // A body cut off after the status arrived still has its status.
      res.on("error", done);
      res.on("close", done);
    });
    request.end(options.body);
  });
}
