import { AppError } from "../errors";

const invalid = (message: string) => new AppError("INVALID_REDIRECT", message);

/**
 * `_redirect` (or `_next`, the name other form backends use) must be an absolute http(s) URL.
 * When the site has a domain, the target must be on it or a subdomain: the intake endpoint must
 * not become an open redirect that anyone can point at another site with a form of their own.
 */
export function validateRedirect(raw: string, siteDomain?: string | null): URL {
  const problem = redirectProblem(raw, siteDomain);
  if (typeof problem === "string") throw invalid(`_redirect ${problem}`);
  return problem;
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
