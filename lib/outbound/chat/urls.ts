import type { ChatKind } from "../../store/outbound-endpoints";
import { hostOf, parseTargetUrl } from "../ssrf";
import { PLATFORMS } from "./platforms";

/** A chat destination's URL is checked against its platform's documented webhook URLs. */

/** The destination URL is not one of its platform's (the SSRF guard's refusals are RefusedTarget). */
export class WrongPlatformUrl extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WrongPlatformUrl";
  }
}

const isLoopbackHost = (host: string) => host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/**
 * Parses `text` and checks it for `kind`: its platform's host and path, or, where private
 * targets are allowed (the local stack, tests), a loopback URL, so a local receiver can stand in
 * for the platform. The SSRF guard (checkTargetUrl) still runs after this, at save and at send.
 */
export function checkDestinationUrl(kind: ChatKind, text: string, allowPrivate: boolean): URL {
  const url = parseTargetUrl(text);
  if (allowPrivate && isLoopbackHost(hostOf(url))) return url;
  const platform = PLATFORMS[kind];
  const reason = platform.refuse(url);
  if (reason) throw new WrongPlatformUrl(`A ${platform.name} destination URL ${reason}`);
  return url;
}
