import type { Plan } from "../config";
import { API_KEY_RATE_LIMITS } from "./permissions";

/**
 * Per-key rate limits: a fixed window of one minute aligned to the clock (12:00:00 to
 * 12:00:59.999), counted in the table (lib/store/counters.ts) so every function instance shares
 * it. A fixed window lets a key send up to twice its limit within 60 s across a window edge
 * (the end of one window and the start of the next); docs/api.md, "Rate limits".
 */
export const API_KEY_WINDOW_SECONDS = 60;
export const API_KEY_COUNTER_SCOPE = "apikey";

/** The plan's per-key limit, lowered by the key's own limit; undefined when the plan has no API access. */
export function effectiveRateLimit(plan: Plan, customRateLimit: number | null | undefined): number | undefined {
  const planLimit = API_KEY_RATE_LIMITS[plan];
  if (planLimit === undefined) return undefined;
  return customRateLimit ? Math.min(customRateLimit, planLimit) : planLimit;
}

/** Seconds until the window resets (at least 1), for Retry-After. */
export const secondsUntil = (resetAtEpochSeconds: number, now: number) =>
  Math.max(1, resetAtEpochSeconds - Math.floor(now / 1000));

/** `X-RateLimit-Reset` is the window's end in epoch seconds, as GitHub's API sends it. */
export function rateLimitHeaders(limit: number, count: number, resetAtEpochSeconds: number): Record<string, string> {
  return {
    "x-ratelimit-limit": String(limit),
    "x-ratelimit-remaining": String(Math.max(0, limit - count)),
    "x-ratelimit-reset": String(resetAtEpochSeconds),
  };
}
