import { type ChatKind, type EndpointKind, kindOf, type OutboundEndpoint } from "../../store/outbound-endpoints";

export const isChatKind = (kind: EndpointKind): kind is ChatKind => kind !== "webhook";

/**
 * The URL as answers show it: a webhook's whole; a chat destination's scheme and host, then "…"
 * and its last four characters. Its URL is its secret (whoever has it can post to the channel):
 * enough to tell two apart, nothing to post with. Kept apart from the builders so every route
 * that shows an endpoint loads only this.
 */
export function shownUrl(endpoint: Pick<OutboundEndpoint, "url" | "kind">): string {
  if (!isChatKind(kindOf(endpoint))) return endpoint.url;
  try {
    const url = new URL(endpoint.url);
    return `${url.protocol}//${url.host}/…${endpoint.url.slice(-4)}`;
  } catch {
    return "…";
  }
}
