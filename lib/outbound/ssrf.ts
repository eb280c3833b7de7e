import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { loadConfig } from "../config";
import { ipVersion, refusedAddressReason } from "./address";

/**
 * The SSRF guard (docs/outbound-webhooks.md): an endpoint URL is http(s), and every address its
 * host resolves to is a public one, checked when the endpoint is saved AND at every send. At
 * send time the check runs inside the `lookup` function handed to http.request, so the socket
 * connects only to an address that was just checked: there is no window between "resolve and
 * check" and "connect" in which DNS could answer differently (DNS rebinding).
 * ALLOW_PRIVATE_WEBHOOK_TARGETS=true turns the address check off (the local stack and tests).
 */

export const MAX_URL_LENGTH = 2048;

export class RefusedTarget extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RefusedTarget";
  }
}

export const privateTargetsAllowed = () => loadConfig().ALLOW_PRIVATE_WEBHOOK_TARGETS === "true";

/** The URL's host as DNS or an IP literal sees it (IPv6 brackets removed). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** Parses and checks everything about a URL that needs no DNS: scheme, host, length. */
export function parseTargetUrl(text: string): URL {
  if (text.length > MAX_URL_LENGTH) throw new RefusedTarget(`The URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RefusedTarget("The URL is not valid");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new RefusedTarget("Only http and https URLs are allowed");
  if (!url.hostname) throw new RefusedTarget("The URL has no host");
  return url;
}

function checkAddress(address: string, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const reason = refusedAddressReason(address);
  if (reason) throw new RefusedTarget(`The host resolves to a refused address (${reason})`);
}

/** Every address `host` resolves to (an IP literal is its own only address). */
async function resolveAll(host: string): Promise<string[]> {
  if (ipVersion(host)) return [host];
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(new RefusedTarget(`The host cannot be resolved (${error.code ?? error.message})`));
      else resolve(addresses.map((a) => a.address));
    });
  });
}

/** The whole check, DNS included, for an endpoint being saved. Returns the parsed URL. */
export async function checkTargetUrl(text: string, allowPrivate = privateTargetsAllowed()): Promise<URL> {
  const url = parseTargetUrl(text);
  const addresses = await resolveAll(hostOf(url));
  if (addresses.length === 0) throw new RefusedTarget("The host resolves to no address");
  for (const address of addresses) checkAddress(address, allowPrivate);
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request / net.connect that refuses the connection unless EVERY address the
 * host resolves to is allowed (one refused address refuses the host: a name that mixes public and
 * private addresses is a rebinding setup). Node calls it with `all: true` when it races address
 * families (autoSelectFamily), with `all: false` otherwise; both are answered.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      try {
        if (addresses.length === 0) throw new RefusedTarget("The host resolves to no address");
        for (const entry of addresses) checkAddress(entry.address, allowPrivate);
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * The check for an IP-literal host at send time: Node connects to a literal without calling
 * `lookup`, so it is checked here instead.
 */
export function checkLiteralHost(url: URL, allowPrivate: boolean): void {
  const host = hostOf(url);
  if (ipVersion(host)) checkAddress(host, allowPrivate);
}
