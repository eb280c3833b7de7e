/**
 * Any origin may post to an intake URL (static sites submit with `fetch`), and every answer
 * carries the header, errors included, so a browser script can read why a post failed.
 * No credentials are involved (the secret is in the URL or a header), so `*` is safe.
 */
export const CORS_HEADERS = { "access-control-allow-origin": "*" } as const;

export const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "content-type, x-webhook-key, idempotency-key",
  "access-control-max-age": "86400",
} as const;
