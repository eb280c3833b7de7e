import { AppError } from "../errors";

const invalid = (message: string) => new AppError("INVALID_REDIRECT", message);

/**
 * `_redirect` (or `_next`, the name other form backends use) must be an absolute http(s) URL.
 * When the site has a domain, the target must be on it or a subdomain: the intake endpoint must
 * not become an open redirect that anyone can point at another site with a form of their own.
 */
export function validateRedirect(
  raw: string,
  siteDomain?: string | null,
  { name = "_redirect", base }: { name?: string; base?: string } = {},
): URL {
  const problem = redirectProblem(base === undefined ? raw : (resolvedAgainst(raw, base) ?? raw), siteDomain);
  if (typeof problem === "string") throw invalid(`${name} ${problem}`);
  return problem;
}

/**
 * A path relative to the page the form was on (FormSubmit's `./thank-you.html`, `/thanks`), made
 * absolute against `base` (the Referer), which must itself be an http(s) URL. Only a path: a
 * scheme, `//host` or a backslash (which URL parsers read as a slash) is not resolved, and the
 * result must be on the Referer's own origin; the domain rule is then applied to it.
 * Undefined when it is not such a path, or the base is no http(s) URL.
 */
export function resolvedAgainst(raw: string, base: string): string | undefined {
  const path = raw.trim();
  if (path === "" || /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith("//") || path.includes("\\")) return undefined;
  try {
    const page = new URL(base);
    if (page.protocol !== "http:" && page.protocol !== "https:") return undefined;
    const url = new URL(path, page);
    // URL parsers drop tabs and line breaks anywhere (`/\t/evil.example` is `//evil.example`):
    // whatever the path holds, the result stays on the page's own origin.
    return url.origin === page.origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The URL, or what is wrong with it (a phrase after its name: "must be an http(s) URL"): the
 * one rule for `_redirect` and for a form's own redirect (lib/forms.ts, `settings.redirectUrl`).
 */
export function redirectProblem(raw: string, siteDomain?: string | null): URL | string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return "must be an absolute http(s) URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an http(s) URL";
  if (url.username || url.password) return "must not carry credentials";
  if (siteDomain) {
    const host = url.hostname.toLowerCase();
    if (host !== siteDomain && !host.endsWith(`.${siteDomain}`)) {
      return `must point to ${siteDomain} or one of its subdomains`;
    }
  }
  return url;
}

/**
 * The target with `ref=<referenceId>` appended. Its own query string is kept as it was written
 * (not re-serialized, so `%20` stays `%20` and a bare `flag` stays bare), except that a `ref`
 * parameter of its own is replaced; the fragment stays last.
 */
export function redirectTarget(url: URL, referenceId: string): string {
  const base = `${url.origin}${url.pathname}`;
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "" && pair.split("=")[0] !== "ref");
  kept.push(`ref=${encodeURIComponent(referenceId)}`);
  return `${base}?${kept.join("&")}${url.hash}`;
}
