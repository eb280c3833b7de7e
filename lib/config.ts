import * as z from "./validation";

/**
 * Every setting the service reads, parsed once per cold start. `infra/` builds each
 * function's environment through `functionEnvironment()` typed from this schema, so a renamed
 * key breaks `tsc`, not production. Local endpoints are ordinary optional settings.
 */
const csv = z.pipe(
  z.optional(z.string()),
  z.transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item.length > 0),
  ),
);

const positiveInt = (fallback: number) =>
  z._default(z.coerce.number().check(z.int(), z.positive()), fallback);

/**
 * An email sender as SES takes it: `addr@domain` or `Display Name <addr@domain>` (one line, the
 * address without spaces or angle brackets).
 */
export const SENDER_PATTERN = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

export const PLANS = ["free", "pro", "agency", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

export const configSchema = z.object({
  TABLE_NAME: z.string().check(z.minLength(1)),
  QUEUE_URL: z.optional(z.string()),
  BASE_URL: z._default(z.url(), "http://localhost:3000"),
  AWS_REGION: z._default(z.string(), "us-east-1"),
  /** Set only for the local stack and tests: DynamoDB Local's address. */
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  /** Set only for the local stack and tests: the SQS emulator's address. */
  SQS_ENDPOINT: z.optional(z.url()),
  /** The private bucket large submission exports are written to (set only on the export route). */
  EXPORT_BUCKET: z.optional(z.string().check(z.minLength(1))),
  /** Set only for the local stack and tests: the S3 emulator's address (path-style addressing). */
  S3_ENDPOINT: z.optional(z.url()),
  /**
   * The sender of notification emails (docs/api.md, "Notification email"). In AWS its address
   * must belong to an SES identity verified in the region (docs/deployment.md).
   */
  NOTIFY_FROM: z._default(
    z.string().check(z.regex(SENDER_PATTERN, "Must be addr@domain or Name <addr@domain>")),
    "Inlet <notifications@inlet.localhost>",
  ),
  /** Set only for the local stack and tests: the SES emulator's address (aws-ses-v2-local). */
  SES_ENDPOINT: z.optional(z.url()),
  DEFAULT_PLAN: z._default(z.enum(PLANS), "free"),
  PLATFORM_ADMIN_EMAILS: csv,
  SIGNUP_MODE: z._default(z.enum(["open", "invite-only"]), "open"),
  SESSION_TTL_HOURS: positiveInt(24 * 7),
  INVITE_TTL_HOURS: positiveInt(24 * 7),
  /** scrypt cost. 2^15 in production; tests may lower it to keep the suite fast. */
  PASSWORD_HASH_COST: positiveInt(32768),
  LOG_LEVEL: z._default(z.enum(["debug", "info", "warn", "error"]), "info"),
  /** Captcha siteverify endpoints (reCAPTCHA v3 for `score`, hCaptcha for `challenge`). */
  CAPTCHA_SCORE_VERIFY_URL: z._default(z.url(), "https://www.google.com/recaptcha/api/siteverify"),
  CAPTCHA_CHALLENGE_VERIFY_URL: z._default(z.url(), "https://api.hcaptcha.com/siteverify"),
  /** How long a siteverify call may take before intake answers 503 CAPTCHA_UNAVAILABLE. */
  CAPTCHA_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 3000),
  /**
   * How long a background purge keeps looking for submissions after the webhook was deleted:
   * an intake request that read the webhook just before may still be writing (API Gateway
   * gives it at most 30 s).
   */
  PURGE_GRACE_SECONDS: z._default(z.coerce.number().check(z.int(), z.minimum(0)), 60),
  /**
   * Outbound webhooks (docs/outbound-webhooks.md): "true" lets endpoints target private,
   * loopback and link-local addresses. Only the local stack and the tests set it; production
   * keeps the SSRF guard on.
   */
  ALLOW_PRIVATE_WEBHOOK_TARGETS: z._default(z.enum(["true", "false"]), "false"),
  /**
   * How long one outbound delivery attempt may take, DNS to last response byte. At most 25 s:
   * an attempt must finish within the consumer's 30 s Lambda timeout.
   */
  OUTBOUND_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive(), z.maximum(25_000)), 10_000),
  /**
   * Seconds to wait before each retry after a failed attempt, comma-separated (jitter ±10% is
   * added). The default is the Standard Webhooks schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
   * 14 h, 20 h, 24 h, so a delivery gets 10 attempts over about 3 days.
   */
  OUTBOUND_RETRY_SCHEDULE_SECONDS: z._default(
    z.string().check(z.regex(/^\s*\d+\s*(,\s*\d+\s*){0,49}$/, "Comma-separated whole seconds")),
    "5,300,1800,7200,18000,36000,50400,72000,86400",
  ),
});

export type Config = z.output<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
export type ConfigKey = keyof ConfigInput;

let cached: Config | undefined;

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return result.data;
}

/** The configuration of this process, parsed from the environment on first use. */
export function loadConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Settings of the local stack only (`npm start`, `npm run seed`, the test stack). */
export const localConfigSchema = z.object({
  /** The local gateway's port; 0 picks a free one (the test stack does). */
  PORT: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65535)), 3000),
  /** Where local data persists; a fresh folder is a fresh database. */
  DATA_DIR: z._default(z.string().check(z.minLength(1)), ".inlet-data"),
  /** Ports of DynamoDB Local and the SQS emulator; 0 (default) picks free ones. */
  DYNAMODB_LOCAL_PORT: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65535)), 0),
  SQS_LOCAL_PORT: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65535)), 0),
  /** The SES emulator's port (its web page lists the emails sent); 0 (default) picks a free one. */
  SES_LOCAL_PORT: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65535)), 0),
  BASE_URL: z.optional(z.url()),
});

export type LocalConfig = z.output<typeof localConfigSchema>;

export function parseLocalConfig(env: Record<string, string | undefined>): LocalConfig {
  const result = localConfigSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid local configuration: ${problems}`);
  }
  return result.data;
}
