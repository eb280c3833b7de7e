/**
 * Every setting the service reads, parsed once per cold start. `infra/` builds each
 * function's environment as a `FunctionEnvironment` (infra/environment.ts), typed from this
 * table, so a renamed key breaks `tsc`, not production. Local endpoints are ordinary optional
 * settings.
 *
 * A plain table of small parsers rather than a schema library: every function imports this
 * module, and building and running the ~30-field schema it replaced cost ~5-6 ms of CPU per
 * cold start. Keep this module free of dependencies (test/standalone/unit/config.test.ts bundles it and
 * checks that no package comes along).
 *
 * Rules, the same as the schema's:
 * - A default applies only when a setting is unset (`undefined`); an optional setting that is
 *   unset stays `undefined`. An empty string is a value and is checked like any other
 *   (`BASE_URL=""` is an invalid URL, `AWS_REGION=""` is the empty region).
 * - Numbers are read with `Number()` (so `" 5 "` and `"1e3"` are accepted, as the schema's
 *   coercion did) and must be safe integers within their range. One deliberate change: a blank
 *   value (`""`, spaces) is rejected, where the schema's coercion read it as 0, so that
 *   `PURGE_GRACE_SECONDS=` silently meant no grace and `PORT=` a random port.
 * - URLs are trimmed, must parse with `new URL()` (any scheme), and have ASCII tabs and
 *   newlines removed, as the schema's URL check did.
 * - Error messages name the setting and its rule, never the value: a misconfigured
 *   secret-ish value must not end up in the logs.
 */

import { looksLikeEmail } from "./email-address";

type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (reason: string): Parsed<never> => ({ ok: false, reason });

/** How a value that is set is read: `In` is what the environment may hold (for `tsc`). */
interface Kind<In extends string, Out> {
  parse(value: string): Parsed<Out>;
  /** Type-level only: the values `infra/` may set (a union of literals for enums). */
  readonly input?: In;
}

/** A setting: a kind, plus what an unset value means. `Req`: whether it must be set. */
interface Setting<In extends string, Out, Req extends boolean = boolean> {
  parse(value: string | undefined): Parsed<Out>;
  readonly required: Req;
  /** The value of an unset setting (`undefined` for optional ones and required ones). */
  fallback(): Out | undefined;
  readonly input?: In;
}

// --- Kinds -------------------------------------------------------------------------------------

/** Any string; `min` characters at least; `pattern` with its message. */
function text(rule: { min?: number; pattern?: RegExp; message?: string } = {}): Kind<string, string> {
  const { min = 0, pattern, message } = rule;
  return {
    parse(value) {
      if (value.length < min) return fail(min === 1 ? "Must not be empty" : `Must have at least ${min} characters`);
      if (pattern && !pattern.test(value)) return fail(message ?? `Must match ${pattern}`);
      return ok(value);
    },
  };
}

const ASCII_TAB_OR_NEWLINE = /[\t\n\r]/g;

/** An absolute URL of any scheme: trimmed, then parsed by the URL parser. */
function url(): Kind<string, string> {
  return {
    parse(value) {
      const trimmed = value.trim();
      if (!URL.canParse(trimmed)) return fail("Must be an absolute URL");
      // The URL parser ignores tabs and newlines; the value used must be the URL it checked.
      return ok(trimmed.replace(ASCII_TAB_OR_NEWLINE, ""));
    },
  };
}

/**
 * A safe integer from `min` (and up to `max`), read with `Number()`; blank is rejected.
 * `powerOfTwo`: only powers of two (scrypt's cost parameter N must be one).
 */
function int(range: { min: number; max?: number; powerOfTwo?: boolean }): Kind<string, number> {
  const { min, max, powerOfTwo = false } = range;
  const reason =
    (max === undefined ? `Must be a whole number >= ${min}` : `Must be a whole number from ${min} to ${max}`) +
    (powerOfTwo ? ", a power of two" : "");
  return {
    parse(value) {
      if (value.trim() === "") return fail(reason);
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n < min || (max !== undefined && n > max)) return fail(reason);
      if (powerOfTwo && (n & (n - 1)) !== 0) return fail(reason);
      return ok(n);
    },
  };
}

/** One of `values`, exactly. */
function oneOf<const V extends readonly string[]>(values: V): Kind<V[number], V[number]> {
  const reason = `Must be one of ${values.map((v) => JSON.stringify(v)).join("|")}`;
  return {
    parse: (value) => ((values as readonly string[]).includes(value) ? ok(value as V[number]) : fail(reason)),
  };
}

/** A comma-separated list of email addresses, items trimmed and lowercased, empty items dropped. */
function emailList(): Kind<string, string[]> {
  return {
    parse: (value) => {
      const items = value
        .split(",")
        .map((item) => item.trim().toLowerCase())
        .filter((item) => item.length > 0);
      const bad = items.find((item) => !looksLikeEmail(item));
      return bad === undefined ? ok(items) : fail(`Not an email address: ${JSON.stringify(bad)}`);
    },
  };
}

// --- Settings ----------------------------------------------------------------------------------

function required<In extends string, Out>(kind: Kind<In, Out>): Setting<In, Out, true> {
  return {
    parse: (value) => (value === undefined ? fail("Required, and not set") : kind.parse(value)),
    required: true,
    fallback: () => undefined,
  };
}

function optional<In extends string, Out>(kind: Kind<In, Out>): Setting<In, Out | undefined, false> {
  return {
    parse: (value) => (value === undefined ? ok(undefined) : kind.parse(value)),
    required: false,
    fallback: () => undefined,
  };
}

function withDefault<In extends string, Out>(kind: Kind<In, Out>, fallback: NoInfer<Out>): Setting<In, Out, false> {
  // A list default is copied, so that a caller changing its config cannot change the next one's.
  const value = () => (Array.isArray(fallback) ? ([...fallback] as Out) : fallback);
  return {
    parse: (raw) => (raw === undefined ? ok(value()) : kind.parse(raw)),
    required: false,
    fallback: value,
  };
}

// --- The service's settings --------------------------------------------------------------------

/**
 * An email sender as SES takes it: `addr@domain` or `Display Name <addr@domain>` (one line, the
 * address without spaces or angle brackets).
 */
export const SENDER_PATTERN = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

export const PLANS = ["free", "pro", "agency", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

const SETTINGS = {
  TABLE_NAME: required(text({ min: 1 })),
  QUEUE_URL: optional(text()),
  BASE_URL: withDefault(url(), "http://localhost:3000"),
  AWS_REGION: withDefault(text(), "us-east-1"),
  /** Set only for the local stack and tests: DynamoDB Local's address. */
  DYNAMODB_ENDPOINT: optional(url()),
  /** Set only for the local stack and tests: the SQS emulator's address. */
  SQS_ENDPOINT: optional(url()),
  /** The private bucket large submission exports are written to (set only on the export route). */
  EXPORT_BUCKET: optional(text({ min: 1 })),
  /** Set only for the local stack and tests: the S3 emulator's address (path-style addressing). */
  S3_ENDPOINT: optional(url()),
  /**
   * The sender of notification emails (docs/api.md, "Notification email"). In AWS its address
   * must belong to an SES identity verified in the region (docs/deployment.md).
   */
  NOTIFY_FROM: withDefault(
    text({ pattern: SENDER_PATTERN, message: "Must be addr@domain or Name <addr@domain>" }),
    "Inlet <notifications@inlet.localhost>",
  ),
  /** Set only for the local stack and tests: the SES emulator's address (aws-ses-v2-local). */
  SES_ENDPOINT: optional(url()),
  /**
   * The SES configuration set every email is sent through (infra/notifications.ts creates it: its
   * suppression of bounces and complaints, its event destination). Unset (the local stack), emails
   * are sent without one.
   */
  SES_CONFIGURATION_SET: optional(text({ min: 1 })),
  /**
   * "on": the AWS SDK clients are traced with Powertools' Tracer (X-Ray subsegments for each call;
   * lib/aws/tracing.ts), and the stack turns on X-Ray active tracing. Off, the Tracer is never
   * loaded, so cold starts stay as measured (docs/performance.md, "Metrics and tracing").
   */
  TRACING: withDefault(oneOf(["on", "off"]), "off"),
  /**
   * The token CloudFront adds to every request it sends to the API (`X-Inlet-Edge`): only a
   * request carrying it may name its visitor's address in X-Forwarded-For (lib/http/client-ip.ts).
   * Set by the CDK stack; unset locally, where the gateway's own peer address is the visitor's.
   */
  EDGE_SECRET: optional(text({ min: 32 })),
  DEFAULT_PLAN: withDefault(oneOf(PLANS), "free"),
  /** Comma-separated; read trimmed and lowercased, empty items dropped. Unset: none. */
  PLATFORM_ADMIN_EMAILS: withDefault(emailList(), []),
  SIGNUP_MODE: withDefault(oneOf(["open", "invite-only"]), "open"),
  SESSION_TTL_HOURS: withDefault(int({ min: 1 }), 24 * 7),
  INVITE_TTL_HOURS: withDefault(int({ min: 1 }), 24 * 7),
  /** How long an emailed verification or reclaim link works (docs/accounts.md). */
  EMAIL_LINK_TTL_HOURS: withDefault(int({ min: 1, max: 24 * 7 }), 24),
  /** How long an emailed password-reset link works: shorter than the others, as it opens the account (docs/accounts.md). */
  PASSWORD_RESET_TTL_MINUTES: withDefault(int({ min: 5, max: 24 * 60 }), 60),
  /**
   * "true" makes the first account of a deployment its platform admin when PLATFORM_ADMIN_EMAILS
   * is unset (still only once its address is verified). Only the local stack sets it: a deployment
   * names its admins (the CDK stack requires the platformAdminEmails context value).
   */
  FIRST_ACCOUNT_ADMIN: withDefault(oneOf(["true", "false"]), "false"),
  /** scrypt cost. 2^15 in production; tests may lower it to keep the suite fast. */
  PASSWORD_HASH_COST: withDefault(int({ min: 2, max: 2 ** 30, powerOfTwo: true }), 32768),
  LOG_LEVEL: withDefault(oneOf(["debug", "info", "warn", "error"]), "info"),
  /** Captcha siteverify endpoints (reCAPTCHA v3 for `score`, hCaptcha for `challenge`). */
  CAPTCHA_SCORE_VERIFY_URL: withDefault(url(), "https://www.google.com/recaptcha/api/siteverify"),
  CAPTCHA_CHALLENGE_VERIFY_URL: withDefault(url(), "https://api.hcaptcha.com/siteverify"),
  /**
   * How long one erasure request (POST /sites/{id}/submissions/erase, POST /organization/erasures)
   * or access request (POST /organization/access-requests) works before it answers with a cursor
   * to continue: well inside API Gateway's 30 s. Tests lower it to make one take several requests.
   */
  ERASE_TIME_BUDGET_MS: withDefault(int({ min: 0, max: 25_000 }), 20_000),
  /** How long a siteverify call may take before intake answers 503 CAPTCHA_UNAVAILABLE. */
  CAPTCHA_TIMEOUT_MS: withDefault(int({ min: 1 }), 3000),
  /**
   * How long a background purge keeps looking for submissions after the webhook was deleted:
   * an intake request that read the webhook just before may still be writing (API Gateway
   * gives it at most 30 s), and a warm instance may hold the webhook for INTAKE_CACHE_SECONDS
   * before that.
   */
  PURGE_GRACE_SECONDS: withDefault(int({ min: 0 }), 60),
  /**
   * Submissions one pass of a retention job re-dates at most (lib/retention-job.ts): one pass stays
   * far inside a consumer invocation's 30 s. The test stack lowers it to see several passes.
   */
  RETENTION_PASS_SIZE: withDefault(int({ min: 1, max: 1000 }), 500),
  /**
   * How long a warm intake function keeps the webhook, its site and its form after reading them
   * (lib/intake/intake-config.ts). A webhook disabled, archived or deleted, a secret rotated, a
   * site deactivated may still accept submissions for up to this long on an instance that read
   * them before; what opens a webhook (a new secret, re-enabled, reactivated) applies at once.
   * 0 reads them on every request (the test stack). docs/intake.md, "Configuration cache".
   */
  INTAKE_CACHE_SECONDS: withDefault(int({ min: 0, max: 60 }), 5),
  /**
   * Outbound webhooks (docs/outbound-webhooks.md): "true" lets endpoints target private,
   * loopback and link-local addresses. Only the local stack and the tests set it; production
   * keeps the SSRF guard on.
   */
  ALLOW_PRIVATE_WEBHOOK_TARGETS: withDefault(oneOf(["true", "false"]), "false"),
  /**
   * How long one outbound delivery attempt may take, DNS to last response byte. At most 25 s:
   * an attempt must finish within the consumer's 30 s Lambda timeout.
   */
  OUTBOUND_TIMEOUT_MS: withDefault(int({ min: 1, max: 25_000 }), 10_000),
  /**
   * Seconds to wait before each retry after a failed attempt, comma-separated (jitter ±10% is
   * added). The default is the Standard Webhooks schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
   * 14 h, 20 h, 24 h, so a delivery gets 10 attempts over about 3 days.
   */
  OUTBOUND_RETRY_SCHEDULE_SECONDS: withDefault(
    text({ pattern: /^\s*\d+\s*(,\s*\d+\s*){0,49}$/, message: "Comma-separated whole seconds" }),
    "5,300,1800,7200,18000,36000,50400,72000,86400",
  ),
};

// --- Types derived from the tables -------------------------------------------------------------

type Table = Record<string, Setting<string, unknown>>;

type InputOf<S> = S extends Setting<infer In, unknown> ? In : never;
type RequiredKeys<T extends Table> = { [K in keyof T]: T[K] extends Setting<string, unknown, true> ? K : never }[keyof T];
type Flatten<T> = { [K in keyof T]: T[K] };

/** What a table reads from the environment: required keys must be set, the others may be. */
type TableInput<T extends Table> = Flatten<
  { [K in RequiredKeys<T>]: InputOf<T[K]> } & { [K in Exclude<keyof T, RequiredKeys<T>>]?: InputOf<T[K]> | undefined }
>;
/** What a table parses to: `undefined` only for unset optional settings (left out of the object). */
type TableOutput<T extends Table> = { [K in keyof T]: T[K] extends Setting<string, infer Out> ? Out : never };

export type Config = TableOutput<typeof SETTINGS>;
/** The environment's side: enum settings take their literal values, the others any string. */
export type ConfigInput = TableInput<typeof SETTINGS>;
export type ConfigKey = keyof ConfigInput;
/** Settings that have a default (see `settingDefault`). */
export type DefaultedKey = {
  [K in ConfigKey]: (typeof SETTINGS)[K] extends Setting<string, unknown, true> ? never : undefined extends Config[K] ? never : K;
}[ConfigKey];

// --- Parsing -----------------------------------------------------------------------------------

function parseTable<T extends Table>(table: T, env: Record<string, string | undefined>, what: string): TableOutput<T> {
  const result: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, setting] of Object.entries(table)) {
    const parsed = setting.parse(env[key]);
    if (!parsed.ok) problems.push(`${key}: ${parsed.reason}`);
    else if (parsed.value !== undefined) result[key] = parsed.value;
  }
  if (problems.length > 0) throw new Error(`Invalid ${what}: ${problems.join("; ")}`);
  return result as TableOutput<T>;
}

/** Parses the service's settings from `env`; throws naming every invalid setting (not values). */
export function parseConfig(env: Record<string, string | undefined>): Config {
  return parseTable(SETTINGS, env, "configuration");
}

let cached: Config | undefined;

/** The configuration of this process, parsed from the environment on first use. */
export function loadConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/**
 * Checks one value of a setting the way `parseConfig` would (for `infra/`, which validates CDK
 * context at synth): the reason it is invalid, or `undefined` if it is valid.
 */
export function checkSetting(key: ConfigKey, value: string): string | undefined {
  const parsed = SETTINGS[key].parse(value);
  return parsed.ok ? undefined : parsed.reason;
}

/**
 * Whether the first-account rule runs (docs/accounts.md): FIRST_ACCOUNT_ADMIN=true with no
 * PLATFORM_ADMIN_EMAILS makes the deployment's first account its platform admin once verified.
 * Only the local stack sets FIRST_ACCOUNT_ADMIN; the CDK app never does, and requires the list.
 * Signup's table grant follows it (infra/table-grants.ts, FIRST_ACCOUNT_WRITES).
 */
export function firstAccountRule(config: Pick<Config, "FIRST_ACCOUNT_ADMIN" | "PLATFORM_ADMIN_EMAILS">): boolean {
  return config.FIRST_ACCOUNT_ADMIN === "true" && config.PLATFORM_ADMIN_EMAILS.length === 0;
}

/** Parses only `keys` of `env` (infra reads a function's settings without the ones only AWS sets). */
export function parseSettings<K extends ConfigKey>(keys: readonly K[], env: Record<string, string | undefined>): Pick<Config, K> {
  const table = Object.fromEntries(keys.map((key) => [key, SETTINGS[key]])) as Table;
  return parseTable(table, env, "settings") as Pick<Config, K>;
}

/** The value a setting takes when it is unset. */
export function settingDefault<K extends DefaultedKey>(key: K): Config[K] {
  return SETTINGS[key].fallback() as Config[K];
}

// --- The local stack's settings ----------------------------------------------------------------

/** Settings of the local stack only (`npm start`, `npm run seed`, the test stack). */
const LOCAL_SETTINGS = {
  /** The local gateway's port; 0 picks a free one (the test stack does). */
  PORT: withDefault(int({ min: 0, max: 65535 }), 3000),
  /** Where local data persists; a fresh folder is a fresh database. */
  DATA_DIR: withDefault(text({ min: 1 }), ".inlet-data"),
  /** Ports of DynamoDB Local and the SQS emulator; 0 (default) picks free ones. */
  DYNAMODB_LOCAL_PORT: withDefault(int({ min: 0, max: 65535 }), 0),
  SQS_LOCAL_PORT: withDefault(int({ min: 0, max: 65535 }), 0),
  /** The SES emulator's port (its web page lists the emails sent); 0 (default) picks a free one. */
  SES_LOCAL_PORT: withDefault(int({ min: 0, max: 65535 }), 0),
  BASE_URL: optional(url()),
  /**
   * How long the local queue poller lets a batch fill, in milliseconds; unset, the deployed
   * consumer's window (QUEUE_CONSUMER.batchingWindowSeconds in functions/routes.ts).
   */
  QUEUE_BATCHING_WINDOW_MS: optional(int({ min: 0, max: 300_000 })),
  /**
   * How often the local TTL sweeper deletes expired items, in seconds (infra/local/ttl-sweeper.ts:
   * DynamoDB Local never does); 0 turns it off.
   */
  LOCAL_TTL_SWEEP_SECONDS: withDefault(int({ min: 0, max: 86_400 }), 60),
};

export type LocalConfig = TableOutput<typeof LOCAL_SETTINGS>;

export function parseLocalConfig(env: Record<string, string | undefined>): LocalConfig {
  return parseTable(LOCAL_SETTINGS, env, "local configuration");
}
