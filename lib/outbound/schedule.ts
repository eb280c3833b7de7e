import { loadConfig } from "../config";
import type { HttpAttempt } from "./http";

/**
 * What an attempt's answer means (conventions, item 8: expected outcomes are values), and when
 * the next attempt is due. Pure functions; the attempt runner (./attempts.ts) acts on them.
 */

export type AttemptOutcome =
  /** 2xx: done. */
  | { kind: "delivered" }
  /** Any other failure while attempts remain: try again after `afterMs`. */
  | { kind: "retry"; afterMs: number }
  /** 410 Gone (or a chat platform's own "gone" answer): the endpoint is disabled and the delivery ends. */
  | { kind: "disable-endpoint" }
  /** A failure after the last attempt the schedule allows. */
  | { kind: "give-up" };

/** The retry delays, in seconds, from OUTBOUND_RETRY_SCHEDULE_SECONDS. */
export function retrySchedule(text = loadConfig().OUTBOUND_RETRY_SCHEDULE_SECONDS): number[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map(Number);
}

/** Attempts an automatic delivery gets: the first one, then one per schedule entry. */
export const maxAttempts = (schedule = retrySchedule()) => schedule.length + 1;

/** A Retry-After is honoured up to this long (the schedule's own longest step is 24 h). */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** `Retry-After` as milliseconds from `now`: delay-seconds or an HTTP date; undefined if unusable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

/** ±10% jitter, so endpoints that failed together do not all retry in the same second. */
export const withJitter = (ms: number, random: () => number = Math.random) => Math.round(ms * (0.9 + 0.2 * random()));

export const isSuccess = (statusCode: number | null) => statusCode !== null && statusCode >= 200 && statusCode < 300;

/**
 * The outcome of attempt number `attempt` (1-based), of at most `finalAttempt` attempts. 2xx
 * succeeds; 410 disables; everything else (3xx included: redirects are not followed, 4xx, 5xx,
 * timeouts, refused connections and refused addresses) is a failure retried on the schedule.
 * 429, 502 and 504 ("slow down") use the schedule like any failure; a `Retry-After` longer than
 * the scheduled delay wins, whatever the status.
 */
export function attemptOutcome(
  response: HttpAttempt,
  attempt: number,
  finalAttempt: number,
  options: { schedule?: number[]; now?: number; random?: () => number; gone?: (response: HttpAttempt) => boolean } = {},
): AttemptOutcome {
  if (isSuccess(response.statusCode)) return { kind: "delivered" };
  if (options.gone ? options.gone(response) : response.statusCode === 410) return { kind: "disable-endpoint" };
  if (attempt >= finalAttempt) return { kind: "give-up" };
  const schedule = options.schedule ?? retrySchedule();
  const stepSeconds = schedule[Math.min(attempt - 1, schedule.length - 1)] ?? 0;
  const scheduled = withJitter(stepSeconds * 1000, options.random);
  const retryAfter = parseRetryAfter(response.retryAfter, options.now ?? Date.now());
  return { kind: "retry", afterMs: retryAfter !== undefined && retryAfter > scheduled ? retryAfter : scheduled };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters become spaces
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\s]+/g, " ").trim();

/**
 * The error text an attempt is logged with (null for a success). `chat`: the attempt went to a
 * chat platform, whose short error code (Slack's `invalid_blocks`, Discord's JSON) is worth
 * showing in the log; a webhook receiver's body is its own business and is not shown.
 */
export function attemptError(response: HttpAttempt, outcome?: AttemptOutcome, chat = false): string | null {
  if (response.error) return response.error;
  const code = response.statusCode;
  if (code === null || isSuccess(code)) return null;
  if (code >= 300 && code < 400) {
    return `redirect ${code} not followed${response.location ? ` (location: ${response.location.slice(0, 200)})` : ""}`;
  }
  const said = chat && response.body ? ` (${oneLine(response.body).slice(0, 160)})` : "";
  if (outcome?.kind === "disable-endpoint" || (!outcome && code === 410)) {
    return code === 410 && !chat
      ? "410 Gone: the endpoint was disabled"
      : `HTTP ${code}${said}: the webhook is gone, the destination was disabled`;
  }
  return `HTTP ${code}${said}`;
}
