import { DIMENSION, METRIC, type OUTCOMES, type REJECT_REASONS, type SPAM_BY, UNKNOWN_SOURCE } from "./catalog";
import { count, currentSource, measure } from "./invocation";

/**
 * One exported function per metric family of the catalog (./catalog.ts), typed by its bounded dimension
 * values, so an emission point is one line and cannot invent a dimension. Each records into the
 * current invocation (./invocation.ts), written as EMF when the invocation ends.
 */

type Outcome<M extends keyof typeof OUTCOMES> = (typeof OUTCOMES)[M][number];

const source = () => ({ [DIMENSION.source]: currentSource() ?? UNKNOWN_SOURCE });

/** An intake request reached the handler and was answered `status`: received, and rejected when a 4xx. */
export function intakeAnswered(status: number): void {
  count(METRIC.submissionsReceived, source());
  if (status >= 400 && status < 500) {
    const reason: (typeof REJECT_REASONS)[number] | string = String(status);
    count(METRIC.submissionsRejected, { ...source(), [DIMENSION.reason]: reason });
  }
}

/** A submission was stored (spam included); a repeat answered with the first one's result is not. */
export function submissionStored(spam: { isSpam: boolean; signals: readonly { name: string }[] }): void {
  count(METRIC.submissionsStored, source());
  if (spam.isSpam) spamStored(spam.signals);
}

/**
 * A submission stored as spam, by what made it spam: the honeypot when it fired, else the
 * per-IP rate when that signal is among its signals, else its score (the other signals).
 */
export function spamStored(signals: readonly { name: string }[]): void {
  const names = new Set(signals.map((signal) => signal.name));
  const by: (typeof SPAM_BY)[number] = names.has("honeypot") ? "honeypot" : names.has("ip_rate") ? "rate" : "score";
  count(METRIC.spamFlagged, { [DIMENSION.by]: by });
}

export function captcha(outcome: Outcome<typeof METRIC.captchaVerifications>, milliseconds: number | undefined): void {
  count(METRIC.captchaVerifications, { [DIMENSION.outcome]: outcome });
  if (milliseconds !== undefined) measure(METRIC.captchaLatency, milliseconds, { [DIMENSION.outcome]: outcome });
}

export function duplicateAdsLead(): void {
  count(METRIC.duplicateAdsLeads);
}

export function idempotentRepeat(): void {
  count(METRIC.idempotentRepeats);
}

/** `recipients`: how many addresses the outcome concerns (an email to three is three sent). */
export function notifications(outcome: Outcome<typeof METRIC.notifications>, recipients: number): void {
  if (recipients > 0) count(METRIC.notifications, { [DIMENSION.outcome]: outcome }, recipients);
}

export function confirmation(outcome: Outcome<typeof METRIC.confirmations>): void {
  count(METRIC.confirmations, { [DIMENSION.outcome]: outcome });
}

export function outbound(outcome: Outcome<typeof METRIC.outboundDeliveries>): void {
  count(METRIC.outboundDeliveries, { [DIMENSION.outcome]: outcome });
}

export function apiKeyRateLimited(): void {
  count(METRIC.apiKeyRateLimited);
}

export function loginRefused(outcome: Outcome<typeof METRIC.loginRefusals>): void {
  count(METRIC.loginRefusals, { [DIMENSION.outcome]: outcome });
}
