import { TextDecoder } from "node:util";
import { AppError } from "../errors";
import { invalidBody } from "./limits";

export interface ContentType {
  type: string;
  /** Lower-cased parameters; quoted values unquoted. */
  params: Record<string, string>;
  charset: string | undefined;
}

/**
 * Splits `type/subtype; key=value; key="quoted value"` (RFC 9110 section 5.6.6). Parameter names
 * are case-insensitive; the first occurrence of a parameter wins.
 */
export function parseHeaderParams(header: string): { value: string; params: Record<string, string> } {
  const params: Record<string, string> = Object.create(null);
  const semi = header.indexOf(";");
  const value = (semi === -1 ? header : header.slice(0, semi)).trim();
  let i = semi === -1 ? header.length : semi + 1;
  while (i < header.length) {
    const eq = header.indexOf("=", i);
    const nextSemi = header.indexOf(";", i);
    if (eq === -1 || (nextSemi !== -1 && nextSemi < eq)) {
      i = nextSemi === -1 ? header.length : nextSemi + 1;
      continue;
    }
    const key = header.slice(i, eq).trim().toLowerCase();
    let j = eq + 1;
    while (header[j] === " " || header[j] === "\t") j++;
    let paramValue = "";
    if (header[j] === '"') {
      j++;
      while (j < header.length && header[j] !== '"') {
        if (header[j] === "\\" && j + 1 < header.length) j++;
        paramValue += header[j];
        j++;
      }
      const end = header.indexOf(";", j);
      i = end === -1 ? header.length : end + 1;
    } else {
      const end = header.indexOf(";", j);
      paramValue = header.slice(j, end === -1 ? header.length : end).trim();
      i = end === -1 ? header.length : end + 1;
    }
    if (key && !(key in params)) params[key] = paramValue;
  }
  return { value, params };
}

export function parseContentType(header: string | undefined): ContentType {
  const { value, params } = parseHeaderParams(header ?? "");
  const charset = params.charset?.trim() || undefined;
  return { type: value.toLowerCase(), params, charset };
}

/**
 * A decoder for a charset label as the WHATWG Encoding Standard names them (every label a
 * browser knows: utf-8, iso-8859-1, windows-1252, shift_jis, utf-16le, ...); an unknown label
 * is 415, since the body's media type (its charset included) is what cannot be handled.
 */
export function decoderFor(charset: string, fatal = true): TextDecoder {
  try {
    return new TextDecoder(charset, { fatal });
  } catch {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", `The charset ${JSON.stringify(charset.slice(0, 40))} is not supported`);
  }
}

/** Windows-1252's bytes 0x80 to 0x9F (the rest is Latin-1), from the WHATWG index. */
const WINDOWS_1252_C1 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/**
 * Node 20's TextDecoder reads every windows-1252 label (iso-8859-1 and latin1 among them, as the
 * Encoding Standard maps them) as plain Latin-1, so 0x80 becomes U+0080 instead of €: decoded
 * here instead.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes)
    out += String.fromCharCode(byte >= 0x80 && byte <= 0x9f ? (WINDOWS_1252_C1[byte - 0x80] as number) : byte);
  return out;
}

/**
 * Decodes bytes in a charset; bytes that are not valid in it are 400 INVALID_BODY. Why not
 * URLSearchParams or a form parser: they decode as UTF-8 only (or, busboy, decode windows-1252
 * as Latin-1 and never refuse invalid bytes), while a legacy page posts Windows-1252 or names its
 * charset in `_charset_`. The WHATWG TextDecoder does the decoding; this module only chooses it.
 */
export function decodeText(bytes: Uint8Array, charset: string): string {
  const decoder = decoderFor(charset);
  if (decoder.encoding === "windows-1252") return decodeWindows1252(bytes);
  try {
    return decoder.decode(bytes);
  } catch {
    throw invalidBody(`The body is not valid ${charset} text`);
  }
}
