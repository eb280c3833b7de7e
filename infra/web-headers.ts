/**
 * The dashboard's security headers, in one place: the CloudFront response headers policy
 * (infra/web-hosting.ts) and the local gateway's static server (infra/local/web-static.ts)
 * both send exactly these, so a page that works locally works deployed (docs/dashboard.md).
 *
 * The policy is strict: scripts and styles only from the app's own origin (Vite emits them as
 * files; nothing inline, no eval), no framing, no plugins, no <base> rewriting, and forms and
 * fetches only to the same origin (the API is `/api/*` of that origin).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Two years, as hstspreload.org asks; subdomains included. */
export const HSTS_MAX_AGE_SECONDS = 63_072_000;

export const DASHBOARD_HEADERS = {
  "Content-Security-Policy": DASHBOARD_CSP,
  "Strict-Transport-Security": `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
} as const;

/** The headers CloudFront's security-headers block cannot express; sent as custom headers there. */
export const DASHBOARD_CUSTOM_HEADERS = {
  "Cross-Origin-Opener-Policy": DASHBOARD_HEADERS["Cross-Origin-Opener-Policy"],
  "Permissions-Policy": DASHBOARD_HEADERS["Permissions-Policy"],
} as const;

/** Hashed file names under assets/ never change content; index.html always revalidates. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";
export const INDEX_CACHE_CONTROL = "no-cache";

/**
 * The API's OpenAPI document (docs/api.md, "OpenAPI document"): it changes only with a
 * deployment, so it is a file of the app bucket (infra/web-build.ts puts docs/openapi.json into
 * the build at this key) served by CloudFront at the API's own path, not a function
 * (infra/web-hosting.ts); the local gateway serves it the same (infra/local/web-static.ts).
 */
export const OPENAPI_DOCUMENT_PATH = "/api/v1/openapi.json";

/** Caches keep it five minutes, then revalidate; any page's script may read it (CORS), as it is public. */
export const OPENAPI_DOCUMENT_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "public, max-age=300",
  "access-control-allow-origin": "*",
  "x-content-type-options": "nosniff",
} as const;
