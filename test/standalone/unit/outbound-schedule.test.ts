import type { HttpAttempt } from "../../../lib/outbound/http";
import {
  attemptError,
  attemptOutcome,
  MAX_RETRY_AFTER_MS,
  maxAttempts,
  parseRetryAfter,
  retrySchedule,
  withJitter,
} from "../../../lib/outbound/schedule";

const response = (overrides: Partial<HttpAttempt>): HttpAttempt => ({
  statusCode: null,
  durationMs: 5,
  error: null,
  retryAfter: null,
  location: null,
  refused: false,
  ...overrides,
});

describe("the retry schedule", () => {
  test("parses the configured seconds; the default is the Standard Webhooks schedule", () => {
    expect(retrySchedule("5,300, 1800")).toEqual([5, 300, 1800]);
    expect(retrySchedule("5,300,1800,7200,18000,36000,50400,72000,86400")).toEqual([
      5,
      5 * 60,
      30 * 60,
      2 * 3600,
      5 * 3600,
      10 * 3600,
      14 * 3600,
      20 * 3600,
      24 * 3600,
    ]);
    expect(maxAttempts([5, 300])).toBe(3);
  });

  test("jitter stays within ±10%", () => {
    expect(withJitter(1000, () => 0)).toBe(900);
    expect(withJitter(1000, () => 0.5)).toBe(1000);
    expect(withJitter(1000, () => 0.999999)).toBe(1100);
  });

  test("Retry-After: seconds or an HTTP date, capped at a day", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:10:00 GMT", now)).toBe(600_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("99999999", now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  const schedule = [5, 300, 1800];
  const opts = { schedule, random: () => 0.5, now: Date.parse("2026-01-01T00:00:00Z") };

  test("2xx delivers; 410 disables; the last failure gives up", () => {
    for (const status of [200, 201, 204, 299]) {
      expect(attemptOutcome(response({ statusCode: status }), 1, 4, opts)).toEqual({ kind: "delivered" });
    }
    expect(attemptOutcome(response({ statusCode: 410 }), 1, 4, opts)).toEqual({ kind: "disable-endpoint" });
    expect(attemptOutcome(response({ statusCode: 500 }), 4, 4, opts)).toEqual({ kind: "give-up" });
  });

  test("every other failure retries on the schedule: 3xx, 4xx, 5xx, 429, timeouts, refused targets", () => {
    const failures = [
      response({ statusCode: 301, location: "https://elsewhere.example/" }),
      response({ statusCode: 302 }),
      response({ statusCode: 400 }),
      response({ statusCode: 404 }),
      response({ statusCode: 429 }),
      response({ statusCode: 500 }),
      response({ statusCode: 502 }),
      response({ statusCode: 504 }),
      response({ error: "timed out after 10000 ms" }),
      response({ error: "The host resolves to a refused address (loopback)", refused: true }),
    ];
    for (const failure of failures) {
      expect(attemptOutcome(failure, 1, 4, opts)).toEqual({ kind: "retry", afterMs: 5_000 });
      expect(attemptOutcome(failure, 2, 4, opts)).toEqual({ kind: "retry", afterMs: 300_000 });
      expect(attemptOutcome(failure, 3, 4, opts)).toEqual({ kind: "retry", afterMs: 1_800_000 });
    }
    // A manual attempt beyond the schedule's length reuses its last step.
    expect(attemptOutcome(response({ statusCode: 500 }), 7, 9, opts)).toEqual({ kind: "retry", afterMs: 1_800_000 });
  });

  test("a longer Retry-After wins over the schedule; a shorter one does not", () => {
    expect(attemptOutcome(response({ statusCode: 429, retryAfter: "60" }), 1, 4, opts)).toEqual({
      kind: "retry",
      afterMs: 60_000,
    });
    expect(attemptOutcome(response({ statusCode: 503, retryAfter: "1" }), 1, 4, opts)).toEqual({ kind: "retry", afterMs: 5_000 });
    expect(attemptOutcome(response({ statusCode: 503, retryAfter: "Thu, 01 Jan 2026 01:00:00 GMT" }), 1, 4, opts)).toEqual({
      kind: "retry",
      afterMs: 3_600_000,
    });
  });

  test("errors say what happened", () => {
    expect(attemptError(response({ statusCode: 200 }))).toBeNull();
    expect(attemptError(response({ statusCode: 500 }))).toBe("HTTP 500");
    expect(attemptError(response({ statusCode: 301, location: "https://x.example/" }))).toBe(
      "redirect 301 not followed (location: https://x.example/)",
    );
    expect(attemptError(response({ statusCode: 410 }))).toMatch(/410 Gone/);
    expect(attemptError(response({ error: "boom" }))).toBe("boom");
  });
});
