import { isIP } from "node:net";
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { safeEqual } from "../ids";

/** The header CloudFront adds to every origin request for the API (infra/web-hosting.ts). */
export const EDGE_HEADER = "x-inlet-edge";

/**
 * The visitor's address, for the per-address login limit, the spam fingerprint and captcha.
 *
 * Behind CloudFront, API Gateway's `sourceIp` is the edge's address, shared by every visitor of
 * that edge: counting per address would then throttle strangers together. CloudFront appends the
 * address it saw to X-Forwarded-For, so that list's last entry (after dropping the edge's own,
 * should API Gateway have appended it) is the visitor. The list is trusted only when the request
 * carries CloudFront's secret origin header (`EDGE_SECRET`): the API's own execute-api URL still
 * answers, and anyone can send an X-Forwarded-For there. Without the secret (or locally, where
 * none is set) the peer address is the visitor's.
 */
export function clientIp(event: APIGatewayProxyEventV2, edgeSecret: string | undefined): string {
  const peer = event.requestContext.http.sourceIp;
  const headers = event.headers ?? {};
  const token = headers[EDGE_HEADER];
  if (!edgeSecret || token === undefined || !safeEqual(token, edgeSecret)) return peer;
  const hops = (headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  while (hops.length > 1 && hops[hops.length - 1] === peer) hops.pop();
  const visitor = hops[hops.length - 1];
  return visitor !== undefined && isIP(visitor) !== 0 ? visitor : peer;
}
