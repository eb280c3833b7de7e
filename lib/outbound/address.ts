/**
 * The SSRF guard's address classifier (docs/outbound-webhooks.md, "Which targets are refused"):
 * which IP addresses an outbound webhook may connect to. Pure functions over the address text,
 * so every range is unit-tested (test/standalone/unit/outbound-address.test.ts).
 *
 * Why not ipaddr.js (docs/performance.md, "Library swaps", measured): it took the queue
 * consumer's bundle over the 500 KB bar (505.0 KB), and its regular expressions, compiled at
 * load, took the outbound-webhook routes from 1.21x to 1.22-1.32x their SDK-only cold start,
 * over the 1.25x bar in two of four readings; and it reads the deprecated IPv4-compatible form `::1.2.3.4`
 * as IPv4-mapped, which this policy must tell apart. The parser here is small, linear, and held
 * to Node's own `net.isIP` by property tests.
 *
 * IPv4: everything but the special-purpose ranges of the IANA registry
 * (https://www.iana.org/assignments/iana-ipv4-special-registry/). IPv6: global unicast only
 * (2000::/3), minus the ranges there that are not a plain internet host; addresses that embed an
 * IPv4 address (IPv4-mapped, NAT64, 6to4) are judged by the address they embed.
 */

interface Range {
  /** The network, as bytes. */
  network: number[];
  bits: number;
  name: string;
}

/**
 * 4 for an IPv4 address, 6 for an IPv6 address, 0 for anything else: exactly what Node's
 * `net.isIP` answers (test/standalone/unit/outbound-address.test.ts checks that, property-based), but by
 * parsing rather than by Node's giant IPv6 regular expression, whose first use costs ~7 ms of
 * CPU to compile: a cold-start cost for every function that loads the SSRF guard.
 *
 * The grammar of Node's expressions (lib/internal/net.js): IPv4 is four decimal parts 0-255
 * without leading zeros. IPv6 is groups of 1-4 hex digits separated by `:`, the last of which
 * may be an IPv4 address (counting as two groups); either exactly 8 groups, or at most 7 with
 * one `::` standing for the missing ones; then optionally a zone id: `%` and one or more
 * letters, digits, `-`, `.` or `:`.
 */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (isIpv4(text)) return 4;
  return isIpv6(text) ? 6 : 0;
}

/** Four dot-separated decimal parts, 0-255, no leading zeros (Node's `isIPv4`). */
function isIpv4(text: string): boolean {
  const parts = text.split(".");
  if (parts.length !== 4) return false;
  for (const part of parts) {
    if (part.length === 0 || part.length > 3) return false;
    if (part.length > 1 && part.charCodeAt(0) === 48 /* 0 */) return false;
    let value = 0;
    for (let i = 0; i < part.length; i++) {
      const code = part.charCodeAt(i);
      if (code < 48 || code > 57) return false;
      value = value * 10 + (code - 48);
    }
    if (value > 255) return false;
  }
  return true;
}

function isHexGroup(group: string): boolean {
  if (group.length === 0 || group.length > 4) return false;
  for (let i = 0; i < group.length; i++) {
    const code = group.charCodeAt(i);
    const hex = (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
    if (!hex) return false;
  }
  return true;
}

/** A zone id's characters: `[0-9a-zA-Z-.:]`. */
function isZoneId(zone: string): boolean {
  if (zone.length === 0) return false;
  for (let i = 0; i < zone.length; i++) {
    const code = zone.charCodeAt(i);
    const digitOrColon = code >= 48 && code <= 58; // 0-9 and ":"
    const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
    if (!digitOrColon && !letter && code !== 45 /* - */ && code !== 46 /* . */) return false;
  }
  return true;
}

/**
 * How many groups `part` (groups separated by single colons, possibly empty) stands for, or -1
 * when it is malformed. Only the address's last part may end in an IPv4 address.
 */
function countGroups(part: string, mayEndInIpv4: boolean): number {
  if (part === "") return 0;
  const groups = part.split(":");
  let count = 0;
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i] as string;
    if (isHexGroup(group)) count += 1;
    else if (mayEndInIpv4 && i === groups.length - 1 && isIpv4(group)) count += 2;
    else return -1;
  }
  return count;
}

/** Node's `isIPv6`, zone id included. */
function isIpv6(text: string): boolean {
  let address = text;
  const percent = text.indexOf("%");
  if (percent !== -1) {
    if (!isZoneId(text.slice(percent + 1))) return false;
    address = text.slice(0, percent);
  }
  const halves = address.split("::");
  if (halves.length > 2) return false;
  if (halves.length === 1) return countGroups(address, true) === 8;
  const left = countGroups(halves[0] as string, false);
  const right = countGroups(halves[1] as string, true);
  return left >= 0 && right >= 0 && left + right <= 7;
}

function ipv4Bytes(text: string): number[] | undefined {
  if (!isIpv4(text)) return undefined;
  return text.split(".").map(Number);
}

/** The 16 bytes of an IPv6 address (zone id dropped), embedded dotted quads included. */
export function ipv6Bytes(input: string): number[] | undefined {
  const text = input.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!isIpv6(text)) return undefined;
  let head = text;
  let tail: number[] = [];
  const lastColon = head.lastIndexOf(":");
  const last = head.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = ipv4Bytes(last);
    if (!v4) return undefined;
    tail = v4;
    head = head.slice(0, lastColon + 1);
    // `::1.2.3.4` leaves `::`, `::ffff:1.2.3.4` leaves `::ffff:`: drop a single trailing colon.
    if (head.endsWith(":") && !head.endsWith("::")) head = head.slice(0, -1);
  }
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  const halves = head.split("::");
  const left = groupsOf(halves[0] ?? "");
  const right = halves.length > 1 ? groupsOf(halves[1] ?? "") : [];
  const fixed = left.length + right.length + tail.length / 2;
  const zeros = halves.length > 1 ? 8 - fixed : 0;
  if (fixed + zeros !== 8) return undefined;
  const groups = [...left, ...Array<string>(zeros).fill("0"), ...right].map((g) => Number.parseInt(g, 16));
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  return [...bytes, ...tail];
}

const v4 = (cidr: string, name: string): Range => {
  const [address, bits] = cidr.split("/");
  return { network: ipv4Bytes(address as string) as number[], bits: Number(bits), name };
};
const v6 = (cidr: string, name: string): Range => {
  const [address, bits] = cidr.split("/");
  return { network: ipv6Bytes(address as string) as number[], bits: Number(bits), name };
};

function inRange(bytes: number[], range: Range): boolean {
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((range.network[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** IPv4 ranges an endpoint may never reach (the IANA special-purpose registry). */
export const REFUSED_IPV4: readonly Range[] = [
  v4("0.0.0.0/8", "this network"),
  v4("10.0.0.0/8", "private"),
  v4("100.64.0.0/10", "carrier-grade NAT"),
  v4("127.0.0.0/8", "loopback"),
  v4("169.254.0.0/16", "link-local (includes the instance metadata address)"),
  v4("172.16.0.0/12", "private"),
  v4("192.0.0.0/24", "IETF protocol assignments"),
  v4("192.0.2.0/24", "documentation"),
  v4("192.88.99.0/24", "6to4 relay anycast"),
  v4("192.168.0.0/16", "private"),
  v4("198.18.0.0/15", "benchmarking"),
  v4("198.51.100.0/24", "documentation"),
  v4("203.0.113.0/24", "documentation"),
  v4("224.0.0.0/4", "multicast"),
  v4("240.0.0.0/4", "reserved (includes broadcast)"),
];

const GLOBAL_UNICAST = v6("2000::/3", "global unicast");
const IPV4_MAPPED = v6("::ffff:0:0/96", "IPv4-mapped");
const NAT64 = v6("64:ff9b::/96", "NAT64");
const SIX_TO_FOUR = v6("2002::/16", "6to4");

/** Inside 2000::/3 but not a plain internet host. */
export const REFUSED_IPV6_GLOBAL: readonly Range[] = [
  v6("2001::/32", "Teredo"),
  v6("2001:2::/48", "benchmarking"),
  v6("2001:10::/28", "ORCHID"),
  v6("2001:20::/28", "ORCHIDv2"),
  v6("2001:db8::/32", "documentation"),
  v6("3fff::/20", "documentation"),
];

/** Names for the refused ranges outside 2000::/3, for the error message. */
const NAMED_IPV6: readonly Range[] = [
  v6("::/128", "unspecified"),
  v6("::1/128", "loopback"),
  v6("::/96", "IPv4-compatible (deprecated)"),
  v6("64:ff9b:1::/48", "local-use NAT64"),
  v6("100::/64", "discard-only"),
  v6("fc00::/7", "unique-local"),
  v6("fe80::/10", "link-local"),
  v6("fec0::/10", "site-local (deprecated)"),
  v6("ff00::/8", "multicast"),
];

function refusedIpv4(bytes: number[]): string | undefined {
  return REFUSED_IPV4.find((range) => inRange(bytes, range))?.name;
}

/**
 * Why `address` (an IPv4 or IPv6 address, as text) may not be connected to, or undefined when it
 * may. Text that is not an IP address is refused too: callers pass resolved addresses only.
 */
export function refusedAddressReason(address: string): string | undefined {
  const four = ipv4Bytes(address);
  if (four) return refusedIpv4(four);
  const bytes = ipv6Bytes(address);
  if (!bytes) return "not an IP address";
  if (inRange(bytes, IPV4_MAPPED) || inRange(bytes, NAT64)) {
    const reason = refusedIpv4(bytes.slice(12));
    return reason ? `${reason} (embedded in IPv6)` : undefined;
  }
  if (inRange(bytes, SIX_TO_FOUR)) {
    const reason = refusedIpv4(bytes.slice(2, 6));
    return reason ? `${reason} (embedded in 6to4)` : undefined;
  }
  if (inRange(bytes, GLOBAL_UNICAST)) return REFUSED_IPV6_GLOBAL.find((range) => inRange(bytes, range))?.name;
  return NAMED_IPV6.find((range) => inRange(bytes, range))?.name ?? "not a global unicast address";
}

export const isAllowedAddress = (address: string) => refusedAddressReason(address) === undefined;
