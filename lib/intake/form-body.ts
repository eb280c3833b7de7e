import { AppError } from "../errors";
import { type ContentType, decoderFor, decodeText, parseHeaderParams } from "./charset";
import { INTAKE_LIMITS, invalidBody, type ParsedBody } from "./limits";

/**
 * The two HTML form encodings, read from the whole body (API Gateway delivers it at once, at
 * most 256 KB here), byte-exact until the charset is known:
 * - the charset is the one declared on the content type, else the one a `_charset_` field names
 *   (the HTML standard has browsers fill that field in), else UTF-8;
 * - browsers never declare a charset on form posts, so when none is declared or named and the
 *   bytes are not valid UTF-8, the body is read as Windows-1252 (what a legacy Latin-1 page
 *   sends) rather than refused or garbled;
 * - a multipart part may declare its own charset on its Content-Type, which then applies to it.
 * Field values are decoded only here; limits on names and values are counted in characters by
 * the collector (lib/intake/fields.ts), so multi-byte text has the same limits as ASCII.
 *
 * Why not busboy (docs/performance.md, "Library swaps", measured): it hands a field over as text
 * decoded by its own rules, never as bytes, so the charset rules above cannot be kept. It
 * decodes a part's declared windows-1252 as Latin-1 (0x80-0x9F come out wrong, `€` among them)
 * and replaces invalid bytes where a declared charset must refuse them (400), and it reports a
 * truncated body through stream events, which would make intake parsing asynchronous. busboy
 * stays the test oracle: test/standalone/unit/intake-form-body.test.ts checks this splitter agrees with it on every
 * well-formed UTF-8 body.
 */

/** Pairs a body may carry before any field is looked at: the fields times the values of a list. */
const MAX_ENTRIES = INTAKE_LIMITS.fields * INTAKE_LIMITS.listItems;

interface RawEntry {
  name: Buffer;
  value: Buffer;
  /** A multipart part's own charset. */
  charset?: string;
}

const tooMany = () => new AppError("TOO_MANY_FIELDS", `A submission has at most ${INTAKE_LIMITS.fields} fields`);

const HEX = /^[0-9A-Fa-f]{2}$/;

/** The urlencoded parser's byte decoding: `+` is a space, `%XX` a byte, anything else itself. */
function percentDecode(latin1: string): Buffer {
  const out = Buffer.allocUnsafe(latin1.length);
  let n = 0;
  for (let i = 0; i < latin1.length; i++) {
    const code = latin1.charCodeAt(i);
    if (code === 0x2b) {
      out[n++] = 0x20;
    } else if (code === 0x25 && HEX.test(latin1.slice(i + 1, i + 3))) {
      out[n++] = Number.parseInt(latin1.slice(i + 1, i + 3), 16);
      i += 2;
    } else {
      out[n++] = code;
    }
  }
  return out.subarray(0, n);
}

/** The charset a `_charset_` field names, when it is one this runtime can decode. */
function namedCharset(entries: RawEntry[]): string | undefined {
  const field = entries.find((e) => e.name.toString("latin1") === "_charset_");
  const label = field?.value.toString("latin1").trim();
  if (!label) return undefined;
  try {
    decoderFor(label);
    return label;
  } catch {
    return undefined;
  }
}

function decodeEntries(entries: RawEntry[], declared: string | undefined): [string, string][] {
  const charset = declared ?? namedCharset(entries);
  const decodeWith = (label: string) =>
    entries.map(({ name, value, charset: own }): [string, string] => [decodeText(name, label), decodeText(value, own ?? label)]);
  if (charset) return decodeWith(charset);
  try {
    return decodeWith("utf-8");
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "INVALID_BODY") throw error;
    // Only the text without a charset of its own falls back; a part's declared charset still holds.
    return decodeWith("windows-1252");
  }
}

/** application/x-www-form-urlencoded, as the WHATWG URL standard parses it. */
export function parseUrlencoded(body: Buffer, declared: string | undefined): [string, string][] {
  const entries: RawEntry[] = [];
  for (const piece of body.toString("latin1").split("&")) {
    if (piece === "") continue;
    if (entries.length >= MAX_ENTRIES) throw tooMany();
    const eq = piece.indexOf("=");
    entries.push({
      name: percentDecode(eq === -1 ? piece : piece.slice(0, eq)),
      value: percentDecode(eq === -1 ? "" : piece.slice(eq + 1)),
    });
  }
  return decodeEntries(entries, declared);
}

interface Part {
  headers: Record<string, string>;
  content: Buffer;
}

function partHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = Object.create(null);
  const lines: string[] = [];
  for (const line of block.split("\r\n")) {
    // Obsolete line folding (RFC 5322): a line starting with white space continues the last.
    if ((line.startsWith(" ") || line.startsWith("\t")) && lines.length > 0) lines[lines.length - 1] += line;
    else lines.push(line);
  }
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw invalidBody("A multipart part has a malformed header");
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * Splits a multipart body into its parts (RFC 2046 section 5.1.1, RFC 7578): an optional
 * preamble, `--boundary` lines (transport padding allowed) with CRLF line ends, each part's
 * headers up to a blank line, and the closing `--boundary--`. A body that ends before the
 * closing delimiter is 400: it was truncated on the way.
 */
function splitParts(body: Buffer, boundary: string): Part[] {
  // Latin-1 maps every byte to one character, so string offsets are byte offsets.
  const text = body.toString("latin1");
  const dash = `--${boundary}`;
  const delimiter = `\r\n${dash}`;
  let pos: number;
  if (text.startsWith(dash)) {
    pos = dash.length;
  } else {
    const first = text.indexOf(delimiter);
    if (first === -1) throw invalidBody("The multipart body does not contain its boundary");
    pos = first + delimiter.length;
  }
  const parts: Part[] = [];
  for (;;) {
    if (text.startsWith("--", pos)) return parts;
    while (text[pos] === " " || text[pos] === "\t") pos++;
    if (!text.startsWith("\r\n", pos)) throw invalidBody("The multipart body is malformed after a boundary");
    pos += 2;
    let contentStart: number;
    let block = "";
    if (text.startsWith("\r\n", pos)) {
      contentStart = pos + 2;
    } else {
      const headerEnd = text.indexOf("\r\n\r\n", pos);
      if (headerEnd === -1) throw invalidBody("The multipart body ends inside a part's headers");
      block = text.slice(pos, headerEnd);
      contentStart = headerEnd + 4;
    }
    const next = text.indexOf(delimiter, contentStart - 2);
    if (next === -1 || next < contentStart - 2) throw invalidBody("The multipart body ends before its closing boundary");
    if (parts.length >= MAX_ENTRIES) throw tooMany();
    parts.push({ headers: partHeaders(block), content: body.subarray(contentStart, Math.max(contentStart, next)) });
    pos = next + delimiter.length;
  }
}

/**
 * multipart/form-data: text fields are kept; file parts (any part with a `filename`, or typed
 * application/octet-stream) are dropped unread and their field names reported. A file input left
 * empty (no filename, no bytes) is no file. Parts without a `form-data` disposition or a name
 * are skipped.
 */
export function parseMultipart(body: Buffer, contentType: ContentType): ParsedBody {
  const boundary = contentType.params.boundary;
  if (!boundary || boundary.length > 200) throw invalidBody("multipart/form-data needs a boundary parameter");
  const entries: RawEntry[] = [];
  const droppedFiles: string[] = [];
  const fileNames: Buffer[] = [];
  for (const part of splitParts(body, boundary)) {
    const disposition = parseHeaderParams(part.headers["content-disposition"] ?? "");
    if (disposition.value.toLowerCase() !== "form-data" || disposition.params.name === undefined) continue;
    const name = Buffer.from(disposition.params.name, "latin1");
    const filename = disposition.params.filename ?? disposition.params["filename*"];
    const partType = parseHeaderParams(part.headers["content-type"] ?? "");
    // A part typed application/octet-stream is binary even without a filename (as busboy rules).
    if (filename !== undefined || partType.value.toLowerCase() === "application/octet-stream") {
      if (filename !== "" || part.content.length > 0) fileNames.push(name);
      continue;
    }
    const partCharset = partType.params.charset?.trim();
    entries.push({ name, value: part.content, ...(partCharset ? { charset: partCharset } : {}) });
  }
  const decoded = decodeEntries(
    [...entries, ...fileNames.map((name) => ({ name, value: Buffer.alloc(0) }))],
    contentType.charset,
  );
  for (const [name] of decoded.slice(entries.length)) {
    // Only the field's name is kept (never the file's), capped like any field name.
    const kept = [...name].slice(0, INTAKE_LIMITS.fieldNameLength).join("");
    if (droppedFiles.length < INTAKE_LIMITS.listedNames && !droppedFiles.includes(kept)) droppedFiles.push(kept);
  }
  return { entries: decoded.slice(0, entries.length), droppedFiles };
}
