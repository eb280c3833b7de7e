import { crc32 } from "node:zlib";
import { randomBase62 } from "../ids";

/**
 * Bearer secrets carry a product prefix (so secret scanners can spot a leaked one and the auth
 * layer can tell sessions from API keys without a lookup), 32 base62 characters of CSPRNG
 * output (~190 bits) and a 6-character CRC32 checksum (so a mistyped secret is rejected
 * without touching the table), the scheme GitHub's tokens use.
 */
export const TOKEN_PREFIXES = {
  session: "inlet_ss_",
  apiKey: "inlet_sk_",
  webhookSecret: "inlet_whsk_",
  invite: "inlet_inv_",
  /** A link emailed to an address: verification or reclaim (docs/accounts.md). */
  emailLink: "inlet_eml_",
} as const;

export type TokenKind = keyof typeof TOKEN_PREFIXES;

const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function checksum(body: string): string {
  let value = crc32(body);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function newToken(kind: TokenKind): string {
  const body = randomBase62(BODY_LENGTH);
  return `${TOKEN_PREFIXES[kind]}${body}${checksum(body)}`;
}

/** The kind of a well-formed token with a valid checksum, or undefined. */
export function tokenKind(token: string): TokenKind | undefined {
  for (const [kind, prefix] of Object.entries(TOKEN_PREFIXES) as [TokenKind, string][]) {
    if (!token.startsWith(prefix)) continue;
    const rest = token.slice(prefix.length);
    if (rest.length !== BODY_LENGTH + CHECKSUM_LENGTH || !/^[0-9A-Za-z]+$/.test(rest)) return undefined;
    const body = rest.slice(0, BODY_LENGTH);
    return rest.slice(BODY_LENGTH) === checksum(body) ? kind : undefined;
  }
  return undefined;
}
