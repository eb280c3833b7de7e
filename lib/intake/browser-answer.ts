import type { APIGatewayProxyEventHeaders } from "aws-lambda";
import type { HttpResult } from "../http/response";

/**
 * A plain HTML `<form>` posted without `_redirect` gets a page to read instead of the JSON
 * envelope (docs/intake.md, "Browser answers"). The page is a rendering of the very answer the
 * JSON would have been (same status, same outcome), so what is stored and refused never
 * depends on who asks; only its form does.
 *
 * The pages, their words and the `Accept` negotiator are loaded on the first answer that needs
 * them, not at a cold start: most intake requests are scripts' and servers' JSON, and these
 * modules were about 4% of the intake's cold load (docs/performance.md, section 1).
 */

// JSON first: a tie (an Accept of any type, or none at all) is JSON, so only a client that
// prefers HTML gets a page.
const OFFERS = ["application/json", "text/html"];

/** Every answer depends on these two request headers (for caches; the answers are no-store anyway). */
const VARY = "Accept, Sec-Fetch-Mode";

/**
 * A browser navigation: `Accept` prefers `text/html` over JSON (q-values honoured), and
 * `Sec-Fetch-Mode`, which browsers send since 2020, is `navigate` when present: a script's
 * `fetch()` sends `cors` (or `no-cors`, `same-origin`) whatever its Accept says.
 */
export async function isNavigation(headers: APIGatewayProxyEventHeaders): Promise<boolean> {
  const mode = headers["sec-fetch-mode"]?.trim().toLowerCase();
  if (mode !== undefined && mode !== "navigate") return false;
  const accept = headers.accept;
  if (!accept) return false;
  // text/html can only be matched by a range that names `html`, a `text/` type or a `*/` type;
  // an Accept with none of them (`application/json`, say) is answered here, without loading the
  // negotiator. (`*/*` needs it: with `application/json;q=0` beside it, HTML wins.)
  if (!MAY_MATCH_HTML.test(accept)) return false;
  const { default: Negotiator } = await import("negotiator");
  return new Negotiator({ headers: { accept } }).mediaType(OFFERS) === "text/html";
}

const MAY_MATCH_HTML = /html|text\/|\*\//i;

/** Longest Referer linked back to; a longer one is no link rather than a page of URL. */
const MAX_BACK_LINK = 2048;

/**
 * The page the visitor came from, for the "back" link: the Referer, else the Origin (which a
 * browser's POST carries even when a proxy or an extension strips the Referer; a page whose
 * policy withholds the referrer sends `null`), only as an http(s) URL without credentials;
 * anything else (`javascript:`, `data:`, `null`, not a URL) is no link.
 */
export function backLink(headers: APIGatewayProxyEventHeaders): URL | undefined {
  for (const raw of [headers.referer, headers.origin]) {
    if (!raw || raw.length > MAX_BACK_LINK) continue;
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    if (url && (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password) return url;
  }
  return undefined;
}

/** The two JSON answers the route gives: spec 4.2's result, and the error envelope (lib/http/response.ts). */
type IntakeAnswer =
  | { success: true; referenceId: string }
  | { success: false; error: { code: string; message: string; requestId?: string } };

/**
 * Reads back the answer the chain built. A type guard rather than a zod schema: this is our own
 * output, not input, and the union and literal schemas would add ~18 KB of zod to a bundle that
 * carries none.
 */
function readAnswer(body: string | undefined): IntakeAnswer | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body ?? "");
  } catch {
    return undefined;
  }
  const answer = value as IntakeAnswer | null;
  if (answer?.success === true && typeof answer.referenceId === "string") return answer;
  if (answer?.success === false && typeof answer.error?.code === "string") return answer;
  return undefined;
}

/**
 * The domain of the site each answer in progress belongs to, by its event: the intake learns the
 * site part way through the chain (lib/intake/intake.ts, round trip 2), after the wrapper below
 * handed the event on, and the page's `frame-ancestors` is that site's (frameAncestors). Keyed
 * weakly, so an entry lives as long as its event; nothing outside this module reads it.
 */
const siteDomains = new WeakMap<object, string | null>();

/** Records that the answer to `event` belongs to a site with `domain` (null: the site has none). */
export function answerForSite(event: object, domain: string | null): void {
  siteDomains.set(event, domain);
}

async function asPage(response: HttpResult, event: { headers?: APIGatewayProxyEventHeaders }): Promise<HttpResult> {
  const answer = readAnswer(response.body);
  // Our own envelopes always read; were one not to, the JSON answer is still a true answer.
  if (!answer) return response;
  const [{ frameAncestors, refusalPage, thankYouPage }, { refusalWords }] = await Promise.all([
    import("./html-page"),
    import("./html-words"),
  ]);
  const context = {
    back: backLink(event.headers ?? {}),
    framers: frameAncestors(siteDomains.get(event)),
    headers: response.headers,
  };
  if (answer.success) return thankYouPage(answer.referenceId, context);
  const { code, message, requestId } = answer.error;
  const words = refusalWords(code, response.statusCode);
  return refusalPage({ status: response.statusCode, code, words, message, requestId }, context);
}

/**
 * Wraps the intake route's handler (the whole middy chain, so refusals from any of its steps,
 * the path check and error mapping included, are covered): a browser navigation's answer
 * becomes a page; a redirect (`_redirect`, 303) stays one, and every other client gets the JSON
 * exactly as before.
 */
export function withBrowserPages<E extends { headers?: APIGatewayProxyEventHeaders }, C>(
  handler: (event: E, context: C) => Promise<HttpResult>,
): (event: E, context: C) => Promise<HttpResult> {
  return async (event, context) => {
    const response = await handler(event, context);
    response.headers.vary = VARY;
    if (response.statusCode === 303 || !(await isNavigation(event.headers ?? {}))) return response;
    return asPage(response, event);
  };
}
