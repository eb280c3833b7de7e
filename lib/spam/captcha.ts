import { loadConfig } from "../config";
import { withDeadline } from "../deadline";
import { AppError } from "../errors";
import { log } from "../log";
import * as metrics from "../metrics/record";
import type { RawValue } from "../store/shapes";
import type { CaptchaSettings } from "../store/sites";

/**
 * Token fields per provider kind: the spec's names and what the real widgets post
 * (reCAPTCHA: g-recaptcha-response; hCaptcha: h-captcha-response; Turnstile: cf-turnstile-response).
 */
export const CAPTCHA_TOKEN_FIELDS = {
  score: ["score-captcha-response", "g-recaptcha-response"],
  challenge: ["challenge-captcha-response", "h-captcha-response", "cf-turnstile-response"],
} as const;

export const ALL_TOKEN_FIELDS: readonly string[] = [...CAPTCHA_TOKEN_FIELDS.score, ...CAPTCHA_TOKEN_FIELDS.challenge];

/** Removes every captcha token field from the data (tokens are never stored) and returns them. */
export function takeCaptchaTokens(data: Record<string, RawValue>): Record<string, string> {
  const tokens: Record<string, string> = {};
  for (const field of ALL_TOKEN_FIELDS) {
    if (!Object.hasOwn(data, field)) continue;
    const value = data[field];
    tokens[field] = (Array.isArray(value) ? value[0] : value) ?? "";
    delete data[field];
  }
  return tokens;
}

interface SiteverifyResponse {
  success?: unknown;
  score?: unknown;
  hostname?: unknown;
  "error-codes"?: unknown;
}

const unavailable = () =>
  new AppError("CAPTCHA_UNAVAILABLE", "The captcha provider could not be reached; retry shortly", undefined, {
    "retry-after": "5",
  });

/** True when `hostname` is the site's domain or one of its subdomains. */
const onDomain = (hostname: string, domain: string) =>
  hostname.toLowerCase() === domain || hostname.toLowerCase().endsWith(`.${domain}`);

/**
 * Verifies a captcha token with the provider's siteverify endpoint before anything is stored
 * (spec 5.3 rule 3). The secret travels form-encoded in the POST body, never in a URL. Missing
 * token: 400; failed, replayed, low score or wrong hostname: 403; provider unreachable, slow or
 * answering garbage: 503, failing closed so the sender can retry and nothing unverified is kept.
 */
export async function verifyCaptcha(
  captcha: CaptchaSettings,
  siteDomain: string | null,
  tokens: Record<string, string>,
  remoteIp: string,
): Promise<void> {
  const token = CAPTCHA_TOKEN_FIELDS[captcha.provider].map((f) => tokens[f]?.trim()).find((t) => t);
  if (!token) {
    metrics.captcha("failed", undefined);
    throw new AppError(
      "CAPTCHA_REQUIRED",
      `This form needs a captcha token in ${CAPTCHA_TOKEN_FIELDS[captcha.provider].join(" or ")}`,
    );
  }
  // Counted by outcome, with the provider's answer time (docs/metrics.md).
  const started = performance.now();
  try {
    await askProvider(captcha, siteDomain, token, remoteIp);
    metrics.captcha("passed", performance.now() - started);
  } catch (error) {
    const unreachable = error instanceof AppError && error.code === "CAPTCHA_UNAVAILABLE";
    metrics.captcha(unreachable ? "unavailable" : "failed", performance.now() - started);
    throw error;
  }
}

/** The provider's siteverify call and the reading of its verdict; throws CAPTCHA_FAILED or CAPTCHA_UNAVAILABLE. */
async function askProvider(captcha: CaptchaSettings, siteDomain: string | null, token: string, remoteIp: string): Promise<void> {
  const config = loadConfig();
  const url = captcha.provider === "score" ? config.CAPTCHA_SCORE_VERIFY_URL : config.CAPTCHA_CHALLENGE_VERIFY_URL;
  let body: SiteverifyResponse;
  // The timeout bounds the answer and the reading of its body, even where the abort does not
  // reach the body (lib/deadline.ts).
  try {
    body = await withDeadline(config.CAPTCHA_TIMEOUT_MS, "captcha provider", async (limit) => {
      const response = await limit.within(
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ secret: captcha.secretKey, response: token, remoteip: remoteIp, sitekey: captcha.siteKey }),
          signal: limit.signal,
          redirect: "error",
        }),
      );
      if (!response.ok) {
        log.warn("captcha provider answered an error status", { status: response.status });
        await response.body?.cancel().catch(() => undefined);
        throw unavailable();
      }
      return (await limit.within(response.json())) as SiteverifyResponse;
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    log.warn("captcha provider unreachable", { errorName: (error as Error).name });
    throw unavailable();
  }
  // An answer without a boolean `success` is no verdict on the token: the provider is broken,
  // not the sender, so it is 503 (retry), never 403.
  if (typeof body !== "object" || body === null || typeof body.success !== "boolean") {
    log.warn("captcha provider answered without a verdict");
    throw unavailable();
  }
  const failed = (reason: string) => new AppError("CAPTCHA_FAILED", `Captcha verification failed: ${reason}`);
  if (body.success !== true) {
    const codes = Array.isArray(body["error-codes"]) ? body["error-codes"].map(String).join(", ") : "not successful";
    throw failed(codes || "not successful");
  }
  if (captcha.provider === "score") {
    const minScore = captcha.minScore ?? 0.5;
    if (typeof body.score !== "number" || body.score < minScore) throw failed(`score below ${minScore}`);
  }
  if (siteDomain && (typeof body.hostname !== "string" || !onDomain(body.hostname, siteDomain))) {
    throw failed("solved on another host name");
  }
}
