import { gunzipSync } from "node:zlib";
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { AppError } from "../errors";
import { IMPORT_LIMITS } from "./limits";

/**
 * The import's request body (docs/importing.md, "Sending a file"): JSON, up to 4 MB as received,
 * maybe `Content-Encoding: gzip` (the dashboard compresses with CompressionStream). A gzipped
 * body is inflated with a maximum output length, so a small bomb stops at the file limit instead
 * of filling the memory. The file inside is at most 20 MB of text either way.
 */

const tooLarge = (message: string) => new AppError("IMPORT_TOO_LARGE", message);

function bodyBytes(event: APIGatewayProxyEventV2): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, "base64") : Buffer.from(event.body, "utf8");
}

function inflate(bytes: Buffer): Buffer {
  // The JSON around the file adds a little: the cap leaves room for it, the file's own limit follows.
  const maxOutputLength = IMPORT_LIMITS.fileBytes + 64 * 1024;
  try {
    return gunzipSync(bytes, { maxOutputLength });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError) {
      throw tooLarge(
        `The file is larger than ${IMPORT_LIMITS.fileBytes / 1024 / 1024} MB uncompressed: split it and import each part`,
      );
    }
    throw new AppError("INVALID_IMPORT_FILE", "The body says Content-Encoding: gzip but is not gzip data");
  }
}

export function readImportBody(event: APIGatewayProxyEventV2): unknown {
  const raw = bodyBytes(event);
  if (raw.length > IMPORT_LIMITS.bodyBytes) {
    throw tooLarge(
      `The request is larger than ${IMPORT_LIMITS.bodyBytes / 1024 / 1024} MB: send it with Content-Encoding: gzip, or split the file`,
    );
  }
  const encoding = (event.headers?.["content-encoding"] ?? "").trim().toLowerCase();
  if (encoding !== "" && encoding !== "gzip" && encoding !== "identity") {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as JSON, plain or with Content-Encoding: gzip");
  }
  const type = (event.headers?.["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "" && type !== "application/json" && !type.endsWith("+json")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json");
  }
  const bytes = encoding === "gzip" ? inflate(raw) : raw;
  // Invalid UTF-8 becomes U+FFFD here, never an error: the text is read as the sender's file says.
  const text = bytes.toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError("INVALID_JSON", "The body is not valid JSON");
  }
  const file = (parsed as { file?: unknown } | null)?.file;
  if (typeof file === "string" && Buffer.byteLength(file) > IMPORT_LIMITS.fileBytes) {
    throw tooLarge(`The file is larger than ${IMPORT_LIMITS.fileBytes / 1024 / 1024} MB: split it and import each part`);
  }
  return parsed;
}
