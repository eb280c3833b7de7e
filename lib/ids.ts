import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Base62 text of `bytes` random bytes from the CSPRNG (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export const ID_PREFIXES = {
  organization: "org",
  user: "usr",
  site: "site",
  apiKey: "key",
  webhook: "wh",
  form: "form",
  submission: "sub",
  auditEntry: "aud",
  tag: "tag",
  note: "note",
  change: "chg",
  import: "imp",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** Opaque, unguessable, type-prefixed ids: 22 base62 characters carry ~131 random bits. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(22)}`;
}

/**
 * An id whose 22 characters start with 8 of the time (ms, base62), so ids of one kind sort by
 * when they were made, then 14 random ones (~83 bits): an import's (lib/imports.ts).
 */
export function newTimeOrderedId(kind: IdKind, now: number): string {
  let time = "";
  for (let n = now, i = 0; i < 8; i++, n = Math.floor(n / 62)) time = ALPHABET[n % 62] + time;
  return `${ID_PREFIXES[kind]}_${time}${randomBase62(14)}`;
}

export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-Za-z]{22}$`).test(value);
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/**
 * 22 base62 characters of `value`'s SHA-256 (~131 bits): a deterministic id for something that
 * has no id of its own (an email address), which fits a path segment and a key.
 */
export function sha256Base62(value: string): string {
  let n = BigInt(`0x${sha256Hex(value)}`);
  let out = "";
  for (let i = 0; i < 22; i++) {
    out += ALPHABET[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

/** Constant-time equality of two strings (false at once only when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export const nowIso = () => new Date().toISOString();
export const epochSeconds = (date: Date | number = Date.now()) =>
  Math.floor((typeof date === "number" ? date : date.getTime()) / 1000);
