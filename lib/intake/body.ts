import { AppError } from "../errors";
import { decoderFor, decodeText, parseContentType } from "./charset";
import { parseMultipart, parseUrlencoded } from "./form-body";
import { INTAKE_LIMITS, invalidBody, type ParsedBody } from "./limits";

export { parseContentType } from "./charset";
export { INTAKE_LIMITS, type ParsedBody } from "./limits";

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= "0" && ch <= "9";

/**
 * JSON.parse rounds integers above 2^53 (advertising platforms send 64-bit ids). Integer
 * literals of 16 or more digits outside strings are quoted first, so they arrive as exact
 * strings; everything else parses as usual. Only literals JSON itself allows are quoted (no
 * leading zeros), so the quoting never turns invalid JSON into valid JSON. Nesting deeper than
 * INTAKE_LIMITS.jsonDepth is refused here, before anything recurses over the value.
 *
 * Why no library: lossless-JSON parsers (json-bigint, lossless-json) turn big numbers into their
 * own number objects or BigInt, which no later step (field collection, DynamoDB, outbound JSON)
 * takes as they are, and none of them bounds nesting before recursing. The quoting is one linear
 * pass, after which the platform's own JSON.parse does the parsing.
 */
export function parseJsonExact(text: string): unknown {
  let out = "";
  let depth = 0;
  let i = 0;
  let copiedUpTo = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"') {
      // Skip the string: its content is copied as it is.
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
      continue;
    }
    if (ch === "{" || ch === "[") {
      if (++depth > INTAKE_LIMITS.jsonDepth) {
        throw invalidBody(`JSON is nested more than ${INTAKE_LIMITS.jsonDepth} levels deep`);
      }
    } else if (ch === "}" || ch === "]") {
      depth--;
    } else if (ch === "-" || isDigit(ch)) {
      let end = i + (ch === "-" ? 1 : 0);
      while (isDigit(text[end])) end++;
      const digits = end - i - (ch === "-" ? 1 : 0);
      const integerEnd = end;
      // The whole literal is consumed: the digits of a fraction or an exponent are not a number.
      if (text[end] === ".") for (end++; isDigit(text[end]); ) end++;
      if (text[end] === "e" || text[end] === "E") {
        end++;
        if (text[end] === "+" || text[end] === "-") end++;
        while (isDigit(text[end])) end++;
      }
      if (end === integerEnd && digits >= 16 && text[end - digits] !== "0") {
        out += `${text.slice(copiedUpTo, i)}"${text.slice(i, end)}"`;
        copiedUpTo = end;
      }
      i = end;
      continue;
    }
    i++;
  }
  return JSON.parse(copiedUpTo === 0 ? text : out + text.slice(copiedUpTo));
}

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
const isJsonType = (type: string) => type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));

/**
 * Reads an intake body as API Gateway delivers it (base64 for every non-JSON type) in one of
 * the accepted content types, honouring the charset. Checks run in this order: the media type
 * (415, an unknown charset included), the size (413), then the body itself (400).
 */
export async function parseIntakeBody(
  rawBody: string | undefined,
  isBase64Encoded: boolean,
  contentTypeHeader: string | undefined,
): Promise<ParsedBody> {
  const contentType = parseContentType(contentTypeHeader);
  const { type, charset } = contentType;
  if (!isJsonType(type) && !FORM_TYPES.has(type)) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      "Send application/json, application/x-www-form-urlencoded or multipart/form-data",
    );
  }
  if (charset !== undefined) decoderFor(charset);
  const body = Buffer.from(rawBody ?? "", isBase64Encoded ? "base64" : "utf8");
  if (body.length > INTAKE_LIMITS.bodyBytes) {
    throw new AppError("PAYLOAD_TOO_LARGE", `The body is larger than ${INTAKE_LIMITS.bodyBytes} bytes`);
  }
  if (isJsonType(type)) {
    // API Gateway hands JSON over as text it already decoded (as UTF-8); only a base64 body is
    // still bytes in the declared charset.
    const text = isBase64Encoded ? decodeText(body, charset ?? "utf-8") : (rawBody ?? "");
    if (text.trim() === "") throw new AppError("NO_DATA_FIELDS", "The body is empty");
    try {
      return { json: parseJsonExact(text), droppedFiles: [] };
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw invalidBody("The body is not valid JSON");
    }
  }
  if (type === "multipart/form-data") return parseMultipart(body, contentType);
  return { entries: parseUrlencoded(body, charset), droppedFiles: [] };
}
