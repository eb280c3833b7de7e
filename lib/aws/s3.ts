import { createHash } from "node:crypto";
import { defaultProvider } from "@aws-sdk/credential-provider-node";
import { Sha256 } from "@smithy/core/checksum";
import { buildQueryString, escapeUri, HttpRequest } from "@smithy/core/protocols";
import { SignatureV4 } from "@smithy/signature-v4";

/**
 * The two S3 calls Inlet makes (store an export, sign its download link), without
 * `@aws-sdk/client-s3` and `@aws-sdk/s3-request-presigner`: a SigV4-signed `fetch` and a
 * presigned URL, built from the pieces the DynamoDB client already bundles (the SigV4 signer,
 * the default credential chain, `HttpRequest`, the SHA-256), so the export function pays only
 * for this file. The signer is configured as the S3 client configures its own
 * (`signingEscapePath: false`: an S3 key is signed as sent, not escaped a second time), and a
 * presigned GET is prepared exactly as `S3RequestPresigner.prepareRequest` prepares it, so links
 * are byte for byte what `getSignedUrl(new S3Client(...), new GetObjectCommand(...))` returns
 * (test/unit/s3-signing.test.ts holds both to that).
 *
 * Addressing: with `endpoint` (the local emulator) path-style, `<endpoint>/<bucket>/<key>`;
 * otherwise virtual-hosted, `https://<bucket>.s3.<region>.amazonaws.com/<key>` (the `aws`
 * partition; no dualstack, FIPS or accelerate endpoints). Virtual-hosted addressing needs a
 * bucket name without dots (TLS wildcard certificates cover one label): the names CloudFormation
 * generates for the export bucket (infra/exports.ts) are lowercase letters, digits and hyphens.
 */

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

export interface S3ClientOptions {
  region: string;
  /** A local emulator's address (`http://127.0.0.1:4566`): addressed path-style. */
  endpoint?: string;
  /**
   * Fixed credentials or a provider. Default: the SDK's default chain (environment, then the
   * Lambda role...), resolved on first use and cached, and refreshed near expiry, by the chain
   * itself.
   */
  credentials?: S3Credentials | (() => Promise<S3Credentials>);
  /** Tests only: the HTTP client (default: the global `fetch`). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Tests only: the signing time (default: now). */
  now?: () => Date;
  /** Tests only: how to wait between attempts (default: setTimeout). */
  sleep?: (ms: number) => Promise<void>;
  /** Attempts per PUT (default 3). */
  maxAttempts?: number;
  /** Time limit of one attempt, response body included (default 10 s). */
  attemptTimeoutMs?: number;
}

export interface PresignGetOptions {
  /** Seconds the link works (at most 7 days; also bounded by the signing credentials' life). */
  expiresIn: number;
  responseContentType?: string;
  responseContentDisposition?: string;
}

export interface S3ObjectClient {
  /** Writes one object with a single signed PUT, retried on throttling, 5xx and network errors. */
  putObject(bucket: string, key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** A presigned GET URL for the object, as `@aws-sdk/s3-request-presigner` signs it. */
  presignGet(bucket: string, key: string, options: PresignGetOptions): Promise<string>;
}

/** A failed S3 request: `name` is S3's error `<Code>` ("AccessDenied", "NoSuchBucket"...) when it sent one. */
export class S3RequestError extends Error {
  constructor(
    readonly code: string,
    readonly status: number | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = code;
  }
}

/** Error codes S3 answers that a retry may cure (besides any 5xx and 429). */
const RETRYABLE_CODES = new Set(["SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable"]);
const BACKOFF_BASE_MS = 100;

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An S3 key as it goes in a URL path: each segment URI-encoded (RFC 3986 unreserved kept), `/` kept. */
export const encodeKey = (key: string) => key.split("/").map(escapeUri).join("/");

/** The parts of an S3 object's URL: path-style on `endpoint`, virtual-hosted in AWS. */
function objectLocation(region: string, endpoint: URL | undefined, bucket: string, key: string) {
  if (endpoint) {
    const base = endpoint.pathname.replace(/\/+$/, "");
    return {
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      port: endpoint.port ? Number(endpoint.port) : undefined,
      path: `${base}/${escapeUri(bucket)}/${encodeKey(key)}`,
    };
  }
  return { protocol: "https:", hostname: `${bucket}.s3.${region}.amazonaws.com`, port: undefined, path: `/${encodeKey(key)}` };
}

const hostHeader = (location: { hostname: string; port?: number | undefined }) =>
  location.port === undefined ? location.hostname : `${location.hostname}:${location.port}`;

/** The URL of a request (`formatUrl` of @aws-sdk/core, which the presigner answers through). */
function requestUrl(request: {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query?: Record<string, string | string[] | null>;
}): string {
  const query = buildQueryString(request.query ?? {});
  return `${request.protocol}//${hostHeader(request)}${request.path}${query ? `?${query}` : ""}`;
}

/** S3's `<Error>` body: its code, message and request id; nothing else (never the string to sign it may echo). */
function parseError(xml: string): { code?: string; message?: string; requestId?: string } {
  const element = (name: string) => {
    const match = new RegExp(`<${name}>([^<]{0,500})</${name}>`).exec(xml);
    return match?.[1];
  };
  return { code: element("Code"), message: element("Message"), requestId: element("RequestId") };
}

const isRetryableStatus = (status: number, code: string | undefined) =>
  status >= 500 || status === 429 || (code !== undefined && RETRYABLE_CODES.has(code));

export function createS3Client(options: S3ClientOptions): S3ObjectClient {
  const {
    region,
    fetch: send = (url, init) => fetch(url, init),
    now = () => new Date(),
    sleep = sleepFor,
    maxAttempts = 3,
    attemptTimeoutMs = 10_000,
  } = options;
  const endpoint = options.endpoint ? new URL(options.endpoint) : undefined;
  // As the S3 client builds its signer (client-s3 runtimeConfig + resolveAwsSdkSigV4Config):
  // service "s3", `uriEscapePath: false`, the node SHA-256; `applyChecksum` left at its default.
  const signer = new SignatureV4({
    service: "s3",
    region,
    credentials: options.credentials ?? defaultProvider(),
    sha256: Sha256,
    uriEscapePath: false,
  });

  async function putOnce(bucket: string, key: string, body: Uint8Array, contentType: string, payloadHash: string) {
    const location = objectLocation(region, endpoint, bucket, key);
    const request = new HttpRequest({
      method: "PUT",
      ...location,
      headers: {
        host: hostHeader(location),
        "content-type": contentType,
        "content-length": String(body.byteLength),
        // S3 requires it on every signed request; the hash of the whole body also lets S3
        // reject a body damaged in transit.
        "x-amz-content-sha256": payloadHash,
      },
      body,
    });
    const signed = await signer.sign(request, { signingDate: now() });
    // fetch sets Host itself, to the same value (the URL's host).
    const { host: _host, ...headers } = signed.headers;
    const response = await send(requestUrl(signed), {
      method: "PUT",
      headers,
      body,
      signal: AbortSignal.timeout(attemptTimeoutMs),
    });
    const text = await response.text();
    return { status: response.status, text };
  }

  return {
    async putObject(bucket, key, body, contentType) {
      const payloadHash = createHash("sha256").update(body).digest("hex");
      const what = `S3 PUT s3://${bucket}/${key}`;
      for (let attempt = 1; ; attempt++) {
        let failure: S3RequestError;
        try {
          const { status, text } = await putOnce(bucket, key, body, contentType, payloadHash);
          if (status >= 200 && status < 300) return;
          const error = parseError(text);
          const detail = [error.message, error.requestId ? `request id ${error.requestId}` : undefined].filter(Boolean).join("; ");
          failure = new S3RequestError(
            error.code ?? `S3Http${status}`,
            status,
            `${what} failed: HTTP ${status}${error.code ? ` ${error.code}` : ""}${detail ? ` (${detail})` : ""}`,
          );
          if (!isRetryableStatus(status, error.code)) throw failure;
        } catch (error) {
          if (error instanceof S3RequestError) throw error;
          // No answer: the connection failed, or the attempt ran out of time.
          const timedOut = error instanceof Error && error.name === "TimeoutError";
          const reason = error instanceof Error ? error.message : String(error);
          failure = new S3RequestError(
            timedOut ? "TimeoutError" : "NetworkError",
            undefined,
            `${what} failed: ${timedOut ? `no answer within ${attemptTimeoutMs} ms` : reason}`,
            { cause: error },
          );
        }
        if (attempt >= maxAttempts) {
          failure.message += ` (after ${attempt} attempts)`;
          throw failure;
        }
        // A fresh key is written once per export: repeating the PUT is harmless.
        await sleep(BACKOFF_BASE_MS * 2 ** (attempt - 1) * (0.5 + Math.random() / 2));
      }
    },

    async presignGet(bucket, key, { expiresIn, responseContentType, responseContentDisposition }) {
      const location = objectLocation(region, endpoint, bucket, key);
      const query: Record<string, string> = { "x-id": "GetObject" };
      if (responseContentDisposition !== undefined) query["response-content-disposition"] = responseContentDisposition;
      if (responseContentType !== undefined) query["response-content-type"] = responseContentType;
      const request = new HttpRequest({
        method: "GET",
        ...location,
        query,
        headers: {
          host: hostHeader(location),
          // What the official presigner sends (its GetObject asks for checksum headers in the
          // answer, flexible checksums' default); hoisted into the query like every x-amz-*.
          "x-amz-checksum-mode": "ENABLED",
          // S3RequestPresigner.prepareRequest: the payload is not signed, under this spelling.
          "X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD",
        },
      });
      const presigned = await signer.presign(request, {
        expiresIn,
        signingDate: now(),
        unsignableHeaders: new Set(["content-type"]),
        unhoistableHeaders: new Set(),
        hoistableHeaders: new Set(),
      });
      return requestUrl(presigned);
    },
  };
}
