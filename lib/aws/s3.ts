import { defaultProvider } from "@aws-sdk/credential-provider-node";
import { AwsClient } from "aws4fetch";
import { type Deadline, withDeadline } from "../deadline";

/**
 * The S3 calls Inlet makes (store an export, sign its download link; store and read an import's rows) through `aws4fetch`, a
 * small SigV4 signer for `fetch`, instead of `@aws-sdk/client-s3` and its presigner, which put the
 * export bundle over its 500 KB bar (docs/performance.md, "Library swaps"). Credentials come from
 * the SDK's default chain, which the DynamoDB client already bundles: the Lambda role's session
 * in AWS, the environment locally; the chain caches them and refreshes them near expiry.
 *
 * Addressing: with `endpoint` (the local emulator) path-style, `<endpoint>/<bucket>/<key>`;
 * otherwise virtual-hosted, `https://<bucket>.s3.<region>.amazonaws.com/<key>` (the `aws`
 * partition). Virtual-hosted addressing needs a bucket name without dots (TLS wildcard
 * certificates cover one label): CloudFormation's generated names (infra/exports.ts) have none.
 */

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface S3ClientOptions {
  region: string;
  /** A local emulator's address (`http://127.0.0.1:4566`): addressed path-style. */
  endpoint?: string;
  /** Fixed credentials or a provider. Default: the SDK's default credential chain. */
  credentials?: S3Credentials | (() => Promise<S3Credentials>);
  /** Attempts per PUT (default 3): aws4fetch retries 5xx and 429 answers with jittered backoff; network errors are retried too. */
  maxAttempts?: number;
  /** Time limit of a PUT, its retries included (default 20 s, inside the export route's 29 s). */
  timeoutMs?: number;
}

export interface PresignGetOptions {
  /** Seconds the link works (at most 7 days; also bounded by the signing credentials' life). */
  expiresIn: number;
  responseContentType?: string;
  responseContentDisposition?: string;
}

export interface S3ObjectClient {
  /** Writes one object with a signed PUT. */
  putObject(bucket: string, key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** A presigned GET URL for the object. */
  presignGet(bucket: string, key: string, options: PresignGetOptions): Promise<string>;
  /** Reads one object whole with a signed GET (an import's rows: lib/store/import-files.ts). */
  getObject(bucket: string, key: string): Promise<Uint8Array>;
}

/** A failed S3 request: `name` is S3's error `<Code>` ("AccessDenied", "NoSuchBucket"...) when it sent one. */
export class S3RequestError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = code;
  }
}

/** RFC 3986 percent-encoding (SigV4's UriEncode): encodeURIComponent leaves `!'()*` as they are. */
const uriEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** An S3 key as it goes in a URL path: each segment percent-encoded, `/` kept. */
export const encodeKey = (key: string) => key.split("/").map(uriEncode).join("/");

/** S3's `<Error>` body: its code and message; nothing else (never the string to sign it may echo). */
function parseError(xml: string): { code?: string; message?: string } {
  const element = (name: string) => new RegExp(`<${name}>([^<]{0,500})</${name}>`).exec(xml)?.[1];
  return { code: element("Code"), message: element("Message") };
}

export function createS3Client(options: S3ClientOptions): S3ObjectClient {
  const { region, maxAttempts = 3, timeoutMs = 20_000 } = options;
  const fixed = options.credentials;
  const credentials: () => Promise<S3Credentials> =
    typeof fixed === "function" ? fixed : fixed ? async () => fixed : defaultProvider();

  const objectUrl = (bucket: string, key: string) => {
    if (!options.endpoint) return `https://${bucket}.s3.${region}.amazonaws.com/${encodeKey(key)}`;
    return `${options.endpoint.replace(/\/+$/, "")}/${uriEncode(bucket)}/${encodeKey(key)}`;
  };
  const signer = async () => {
    const { accessKeyId, secretAccessKey, sessionToken } = await credentials();
    return new AwsClient({ accessKeyId, secretAccessKey, sessionToken, service: "s3", region, retries: maxAttempts - 1 });
  };

  // aws4fetch retries 5xx and 429 answers itself; a request that got no answer at all (a reset
  // connection) is tried again here, within the same time limit.
  const send = async (aws: AwsClient, url: string, init: RequestInit, limit: Deadline) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await limit.within(aws.fetch(url, { ...init, signal: limit.signal }));
      } catch (error) {
        if (attempt >= maxAttempts || limit.signal.aborted) throw error;
      }
    }
  };

  return {
    async putObject(bucket, key, body, contentType) {
      const aws = await signer();
      const init = { method: "PUT", body, headers: { "content-type": contentType } };
      // The request, its retries and the body's reading within one time limit (lib/deadline.ts).
      const { response, text } = await withDeadline(timeoutMs, `S3 PUT ${key}`, async (limit) => {
        const answer = await send(aws, objectUrl(bucket, key), init, limit);
        return { response: answer, text: await limit.within(answer.text()) };
      });
      if (!response.ok) {
        const { code, message } = parseError(text);
        throw new S3RequestError(
          code ?? `Http${response.status}`,
          response.status,
          `S3 PUT ${key} failed: ${message ?? response.status}`,
        );
      }
    },

    async getObject(bucket, key) {
      const aws = await signer();
      const { response, bytes } = await withDeadline(timeoutMs, `S3 GET ${key}`, async (limit) => {
        const answer = await send(aws, objectUrl(bucket, key), { method: "GET" }, limit);
        return { response: answer, bytes: await limit.within(answer.arrayBuffer()) };
      });
      if (!response.ok) {
        const { code, message } = parseError(new TextDecoder().decode(bytes));
        throw new S3RequestError(
          code ?? `Http${response.status}`,
          response.status,
          `S3 GET ${key} failed: ${message ?? response.status}`,
        );
      }
      return new Uint8Array(bytes);
    },

    async presignGet(bucket, key, { expiresIn, responseContentType, responseContentDisposition }) {
      const url = new URL(objectUrl(bucket, key));
      url.searchParams.set("X-Amz-Expires", String(expiresIn));
      if (responseContentType) url.searchParams.set("response-content-type", responseContentType);
      if (responseContentDisposition) url.searchParams.set("response-content-disposition", responseContentDisposition);
      const signed = await (await signer()).sign(url.toString(), { method: "GET", aws: { signQuery: true } });
      return signed.url;
    },
  };
}
