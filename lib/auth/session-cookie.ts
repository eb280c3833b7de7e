import { loadConfig } from "../config";
import { AppError } from "../errors";

/**
 * The dashboard's session as a cookie page scripts cannot read (docs/api.md, "Sessions in a
 * cookie"): `HttpOnly` (no script reads it, so cross-site scripting cannot steal it), `Secure`,
 * `SameSite=Strict` (a cross-site request does not carry it), and the `__Host-` prefix (only set
 * by this host, over HTTPS, for the whole path, never by a subdomain) where the service's scheme
 * allows it. Browsers treat http://localhost as secure, so the local stack gets the same cookie.
 * No library: a cookie of one name and four fixed attributes is one line to write and to find,
 * and the request's cookies arrive already split (payload format 2.0's `cookies`).
 */

/** Sent with a sign-in (signup, login) that wants its session as this cookie instead of a bearer token. */
export const SESSION_MODE_HEADER = "x-inlet-session";
export const SECURE_COOKIE = "__Host-inlet_session";
/** A deployment served over plain http on a host browsers do not treat as secure: no prefix, no Secure. */
export const PLAIN_COOKIE = "inlet_session";

function secureScheme(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return url.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/** Whether a sign-in request asked for the cookie (`X-Inlet-Session: cookie`). */
export const wantsSessionCookie = (headers: Record<string, string | undefined> | undefined) =>
  headers?.[SESSION_MODE_HEADER]?.trim().toLowerCase() === "cookie";

/** The Set-Cookie value carrying `token` until `expiresAt`. */
export function sessionCookie(token: string, expiresAt: string, now = Date.now()): string {
  const secure = secureScheme(loadConfig().BASE_URL);
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - now) / 1000));
  return `${secure ? SECURE_COOKIE : PLAIN_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; ${secure ? "Secure; " : ""}SameSite=Strict`;
}

/** The Set-Cookie value that removes the session cookie (sign-out). */
export function clearedSessionCookie(): string {
  const secure = secureScheme(loadConfig().BASE_URL);
  return `${secure ? SECURE_COOKIE : PLAIN_COOKIE}=; Path=/; Max-Age=0; HttpOnly; ${secure ? "Secure; " : ""}SameSite=Strict`;
}

/**
 * The one cookie name this deployment sets and reads: `__Host-inlet_session` wherever the scheme
 * is secure, `inlet_session` only on plain http (not localhost). Over https the unprefixed name
 * is not ours: a sibling subdomain of a custom domain, or a first visit over plain http, can plant
 * it (a cookie without the prefix may carry `Domain=` and need not be `Secure`), and browsers
 * send the cookie with the longer path first, so reading it would sign the victim into the
 * planter's account. It is ignored, not refused: refusing would let whoever planted it lock the
 * victim out (docs/api.md, "Sessions in a cookie").
 */
export const sessionCookieName = (baseUrl = loadConfig().BASE_URL) => (secureScheme(baseUrl) ? SECURE_COOKIE : PLAIN_COOKIE);

/**
 * The session token in the request's cookies (payload 2.0 `cookies`, each `name=value`), if any.
 * More than one cookie of the session's name is 401 SESSION_COOKIE_AMBIGUOUS, never resolved by
 * their order: a browser holds one `__Host-` cookie of a name per host, so a second one was
 * planted or forged, and which of them is the person's own cannot be told.
 */
export function sessionFromCookies(cookies: readonly string[] | undefined, baseUrl?: string): string | undefined {
  const name = sessionCookieName(baseUrl);
  const values = (cookies ?? []).flatMap((cookie) => {
    const eq = cookie.indexOf("=");
    return eq >= 0 && cookie.slice(0, eq).trim() === name ? [cookie.slice(eq + 1).trim()] : [];
  });
  if (values.length > 1) {
    throw new AppError("SESSION_COOKIE_AMBIGUOUS", `The request carries ${values.length} ${name} cookies; sign in again`);
  }
  return values[0] || undefined;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The CSRF check of a request authenticated by the cookie: a state-changing one must come from
 * the service's own origin (`Origin` equal to BASE_URL's). Browsers send `Origin` on every
 * cross-origin request and on every POST, PUT and DELETE; a request without one is refused too.
 * SameSite=Strict already keeps the cookie off cross-site requests; this covers same-site
 * origins (another subdomain) and browsers without SameSite.
 */
export function checkCookieOrigin(method: string, origin: string | undefined): void {
  if (SAFE_METHODS.has(method.toUpperCase())) return;
  if (origin !== undefined && origin === new URL(loadConfig().BASE_URL).origin) return;
  throw new AppError("CSRF_ORIGIN_MISMATCH", "A request signed in by the session cookie must come from the service's own origin");
}
