/**
 * The business metrics Inlet emits, in CloudWatch's Embedded Metric Format (written to the
 * log stream; no PutMetricData on the request path). One list shared by the code that emits
 * them (lib/metrics) and the CloudWatch dashboard and alarms that read them (infra/), so a
 * renamed metric breaks `tsc`, not a graph.
 *
 * Dimensions stay bounded: a source kind, a status class, a reason or an outcome from the
 * lists below; never an organization, site, form, webhook or endpoint id.
 */
import type { WebhookSource } from "../store/webhooks";

export const METRICS_NAMESPACE = "Inlet";

/**
 * Where a submission came from: the webhook's `source` (lib/store/webhooks.ts, WEBHOOK_SOURCES).
 * Written out here, checked against that list by the types only: a value import of the store
 * would put the DynamoDB client into every function that writes a metric or a request line,
 * the constant routes included (test/local-stack/perf/budgets.test.ts).
 */
export const SOURCES = ["generic", "partner_ads", "partner_automation"] as const satisfies readonly WebhookSource[];
// Fails to compile when lib/store/webhooks.ts gains a source this list lacks.
const everySource: Record<WebhookSource, true> = { generic: true, partner_ads: true, partner_automation: true };
void everySource;

/** The source of an intake request refused before its webhook was known (404, or a body refused first). */
export const UNKNOWN_SOURCE = "unknown";

export const METRIC = {
  /** Every intake request that reached the handler. Dimension: source (SOURCES, or UNKNOWN_SOURCE). */
  submissionsReceived: "SubmissionsReceived",
  /** Submissions stored (spam included). Dimension: source. */
  submissionsStored: "SubmissionsStored",
  /** Intake requests refused. Dimensions: source, reason (the HTTP status: 400, 401, 403, 404, 410, 413, 415, 422, 429). */
  submissionsRejected: "SubmissionsRejected",
  /** Stored as spam. Dimension: by (honeypot | score | rate). */
  spamFlagged: "SpamFlagged",
  /** Captcha verifications. Dimension: outcome (passed | failed | unavailable). */
  captchaVerifications: "CaptchaVerifications",
  /** The captcha provider's answer time, milliseconds. Dimension: outcome. */
  captchaLatency: "CaptchaLatency",
  /** An advertising platform's lead id seen before (answered, not stored again). */
  duplicateAdsLeads: "DuplicateAdsLeads",
  /** An Idempotency-Key repeated with the same data (answered, not stored again). */
  idempotentRepeats: "IdempotentRepeats",
  /** Notification emails. Dimension: outcome (sent | failed | suppressed). */
  notifications: "Notifications",
  /** Outbound webhook attempts. Dimension: outcome (delivered | retried | gave_up | endpoint_disabled). */
  outboundDeliveries: "OutboundDeliveries",
  /** API-key requests refused by the key's rate limit (429). */
  apiKeyRateLimited: "ApiKeyRateLimited",
  /** Log-in attempts refused. Dimension: outcome (failed | throttled). */
  loginRefusals: "LoginRefusals",
  /**
   * Confirmation emails to submitters. Dimension: outcome (sent | failed | refused: a rule of
   * docs/email.md said no | suppressed | repeated: the address had one from the form within a day).
   */
  confirmations: "Confirmations",
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/** The dimension names used above. */
export const DIMENSION = { source: "source", reason: "reason", by: "by", outcome: "outcome" } as const;

export const OUTCOMES = {
  [METRIC.captchaVerifications]: ["passed", "failed", "unavailable"],
  [METRIC.captchaLatency]: ["passed", "failed", "unavailable"],
  [METRIC.notifications]: ["sent", "failed", "suppressed"],
  [METRIC.outboundDeliveries]: ["delivered", "retried", "gave_up", "endpoint_disabled"],
  [METRIC.loginRefusals]: ["failed", "throttled"],
  [METRIC.confirmations]: ["sent", "failed", "refused", "suppressed", "repeated"],
} as const;

export const SPAM_BY = ["honeypot", "score", "rate"] as const;
export const REJECT_REASONS = ["400", "401", "403", "404", "410", "413", "415", "422", "429"] as const;
