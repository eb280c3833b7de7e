import { createHash } from "node:crypto";
import type { HttpResult } from "../http/response";

/**
 * The intake route's answer pages for a browser navigation (docs/intake.md, "Browser answers"):
 * one inline style sheet, allowed by its hash, and nothing else: no script, no image, no font,
 * no form. Colours follow the system's light or dark preference.
 */
const STYLE = [
  ":root{color-scheme:light dark;--bg:#f6f7f9;--fg:#1f2328;--muted:#59636e;--card:#fff;--line:#d1d9e0;--link:#0969da;--ok:#1a7f37;--bad:#cf222e}",
  "@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--card:#151b23;--line:#3d444d;--link:#4493f8;--ok:#3fb950;--bad:#f85149}}",
  "body{margin:0;min-height:100vh;display:grid;place-items:center;padding:1.5rem;box-sizing:border-box;background:var(--bg);color:var(--fg);font:1rem/1.5 system-ui,sans-serif}",
  "main{max-width:32rem;background:var(--card);border:1px solid var(--line);border-top:.3rem solid var(--ok);border-radius:.75rem;padding:1.5rem 2rem}",
  ".refused{border-top-color:var(--bad)}h1{margin:0 0 .75rem;font-size:1.5rem}",
  "strong{font:600 1.1rem ui-monospace,monospace}small{color:var(--muted);overflow-wrap:anywhere}a{color:var(--link)}",
].join("");

const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

/**
 * Who may show the page in a frame (`frame-ancestors`), decided per site: a form embedded in an
 * iframe shows its answer in that frame, so the pages of a site with a domain may be framed by
 * pages of that domain and its subdomains (any port, http or https, as `_redirect` may point
 * there: lib/intake/redirect.ts), and by nothing else. A site without a domain has not said where
 * its forms live, and an answer given before the site was read (an unknown address, a wrong key,
 * an unreadable body) belongs to no site: those pages may be framed anywhere. The page has no
 * script, no form and one link, so framing it lets a page do nothing a link to it could not.
 * docs/intake.md, "Browser answers".
 */
export function frameAncestors(siteDomain: string | null | undefined): string {
  if (!siteDomain) return "*";
  return ["https", "http"].flatMap((scheme) => [`${scheme}://${siteDomain}:*`, `${scheme}://*.${siteDomain}:*`]).join(" ");
}

/**
 * `default-src 'none'` forbids everything a directive does not allow again; only the style
 * sheet above is. `form-action` and `base-uri` do not fall back to `default-src`, so they are
 * stated; `frame-ancestors` is the site's (frameAncestors).
 */
export const pageCsp = (framers: string) =>
  `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors ${framers}`;

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "x-content-type-options": "nosniff",
  // The page's URL is the intake URL, whose query may hold the webhook's secret: the back link
  // must not send it on to the site in a Referer (rel="noreferrer" says so too).
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text for an element's content or a quoted attribute value. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

function page(title: string, refused: boolean, content: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${title}</title><style>${STYLE}</style></head>` +
    `<body><main${refused ? ' class="refused"' : ""}>${content}</main></body></html>`
  );
}

const backLinkHtml = (back: URL | undefined) =>
  back ? `<p><a href="${escapeHtml(back.href)}" rel="noreferrer">Back to ${escapeHtml(back.host)}</a></p>` : "";

/** What a page answer is built with besides its content. */
export interface PageContext {
  /** The link back to the page the visitor came from. */
  back: URL | undefined;
  /** The `frame-ancestors` sources (frameAncestors). */
  framers: string;
  /** The JSON answer's headers (CORS, Retry-After), kept. */
  headers: Record<string, string>;
}

/** Same headers as the JSON answer it replaces (CORS, Retry-After), but typed and locked down as a page. */
function htmlResult(statusCode: number, context: PageContext, body: string): HttpResult {
  return {
    statusCode,
    headers: { ...context.headers, ...PAGE_HEADERS, "content-security-policy": pageCsp(context.framers) },
    body,
  };
}

export function thankYouPage(referenceId: string, context: PageContext): HttpResult {
  const content =
    "<h1>Thank you!</h1><p>Your submission has been received.</p>" +
    `<p>Your reference: <strong>${escapeHtml(referenceId)}</strong></p>${backLinkHtml(context.back)}`;
  return htmlResult(200, context, page("Thank you", false, content));
}

export interface Refusal {
  status: number;
  code: string;
  words: string;
  message: string;
  requestId?: string | undefined;
}

export function refusalPage(refusal: Refusal, context: PageContext): HttpResult {
  const id = refusal.requestId ? ` Request id: ${escapeHtml(refusal.requestId)}.` : "";
  const content =
    `<h1>Your submission was not sent</h1><p>${escapeHtml(refusal.words)}</p>` +
    `<p><small>${escapeHtml(refusal.message)} (error ${escapeHtml(refusal.code)}, HTTP ${refusal.status}).${id}</small></p>` +
    backLinkHtml(context.back);
  return htmlResult(refusal.status, context, page("Not sent", true, content));
}
