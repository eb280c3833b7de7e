import type { RawValue, SpamSignalHit, SpamVerdict } from "../store/shapes";
import type { WebhookSource } from "../store/webhooks";

export type { SpamSignalHit, SpamVerdict } from "../store/shapes";

/** Spec 3.3: a score above this is spam. */
export const SPAM_THRESHOLD = 70;

/** What the signals look at: the submission, its request, and what the table remembered. */
export interface SpamContext {
  source: WebhookSource;
  data: Record<string, RawValue>;
  controls: Record<string, string>;
  /**
   * Honeypots filled outside the `_` names, as posted: those of the webhook's compatibility
   * setting (web3forms' `botcheck`, netlify's `bot-field`, the setting's `honeypotField`).
   */
  honeypots?: readonly string[];
  referer: string | undefined;
  userAgent: string | undefined;
  /** Receive time, epoch milliseconds. */
  now: number;
  /** Same client IP and same normalized data seen within the duplicate window. */
  duplicate: boolean;
  /** Submissions from the client IP in the current minute and hour windows, this one included. */
  ipRate: { minute: number; hour: number };
}

export interface SpamSignal {
  name: string;
  /** Points when the signal fires (phrases: per phrase, see `points`). */
  score: number;
  /** The sources whose senders the signal describes (docs/spam.md, "Which signals apply"). */
  appliesTo: readonly WebhookSource[];
  /** Points scored; 0 when the signal does not fire. */
  points: (ctx: SpamContext) => number;
  /** What fired, in words, for the signals list (called only when the signal fired). */
  detail: (ctx: SpamContext) => string;
}

const ALL: readonly WebhookSource[] = ["generic", "partner_ads", "partner_automation"];
/** Browser signals describe browsers: server-to-server senders authenticated by key have none. */
const BROWSERS: readonly WebhookSource[] = ["generic"];

/**
 * Honeypot field names: the spec's `_hp`, `_gotcha` (the name most form backends use) and
 * FormSubmit's `_honey`.
 */
export const HONEYPOT_FIELDS = ["hp", "gotcha", "honey"] as const;

/** The control field carrying when the form was shown: epoch milliseconds. */
export const SHOWN_AT_FIELD = "ts";
export const TOO_FAST_MS = 2000;

export const RATE_LIMITS = { perMinute: 5, perHour: 20 } as const;
export const DUPLICATE_WINDOW_SECONDS = 24 * 3600;
/** More than this many links across all text values is "excessive". */
export const MAX_URLS = 2;

/**
 * User agents of crawlers, headless browsers and HTTP libraries (matched case-insensitively;
 * an empty or absent user agent counts too). docs/spam.md lists them.
 */
export const BOT_USER_AGENTS: readonly RegExp[] = [
  // Crawlers. "Cubot" is a phone brand whose browsers say "CUBOT": not a bot.
  /(?<!cu)bot\b|crawl|spider|slurp|scrapy|facebookexternalhit|ia_archiver/i,
  // Headless and automated browsers.
  /headless|phantomjs|selenium|webdriver|puppeteer|playwright|electron/i,
  // HTTP libraries and command-line clients (`node` is Node's own fetch).
  /^curl\/|^wget\/|python-requests|python-urllib|aiohttp|httpx|go-http-client|^java\/|okhttp|axios|node-fetch|undici|^node$|libwww-perl|httpclient|^ruby|guzzlehttp|postmanruntime|insomnia|httpie/i,
];

/** Phrases typical of form spam; each one found adds 10, at most 30 in all. */
export const SPAM_PHRASES: readonly string[] = [
  "viagra",
  "cialis",
  "casino",
  "bitcoin",
  "crypto investment",
  "forex",
  "seo services",
  "backlinks",
  "payday loan",
  "make money fast",
  "earn money online",
  "work from home",
  "click here",
  "buy now",
  "limited time offer",
  "100% free",
  "risk-free",
  "you have won",
  "congratulations you",
  "adult dating",
  "escort",
  "porn",
  "weight loss",
  "cheap pills",
  "increase your traffic",
  "first page of google",
];

const texts = (data: Record<string, RawValue>) => Object.values(data).flat();

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+|\bwww\.[a-z0-9-]+\.[a-z]{2,}[^\s<>"']*/gi;

export const countUrls = (data: Record<string, RawValue>) =>
  texts(data).reduce((sum, text) => sum + (text.match(URL_PATTERN)?.length ?? 0), 0);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A letter or a digit in any script: a phrase must have neither right before nor right after it. */
const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;

/**
 * The phrases as plain case-insensitive patterns (any run of white space between their words),
 * built on the first submission scored, not at import. The word boundaries are checked apart,
 * with the one pattern above: a `\p{L}` class in a case-insensitive pattern is costly to build,
 * and one lookbehind and lookahead per phrase made the first check of a cold function take
 * 40-60 ms on the bench machine (26 patterns compiled on first use) and 3 ms at import;
 * this takes about 1 ms in all (docs/performance.md, section 1).
 */
let phrasePatterns: readonly RegExp[] | undefined;
const patterns = () =>
  (phrasePatterns ??= SPAM_PHRASES.map((phrase) => new RegExp(escapeRegExp(phrase).replace(/ +/g, "\\s+"), "giu")));

/** The whole character (a surrogate pair counts as one) that ends right before `index`. */
function characterBefore(text: string, index: number): string {
  if (index >= 2 && /[\udc00-\udfff]/.test(text.charAt(index - 1)) && /[\ud800-\udbff]/.test(text.charAt(index - 2))) {
    return text.slice(index - 2, index);
  }
  return text.slice(index - 1, index);
}

/** The whole character that starts at `index` ("" at the end). */
const characterAt = (text: string, index: number) => {
  const code = text.codePointAt(index);
  return code === undefined ? "" : String.fromCodePoint(code);
};

const onWordBoundaries = (text: string, start: number, end: number) =>
  !WORD_CHARACTER.test(characterBefore(text, start)) && !WORD_CHARACTER.test(characterAt(text, end));

/** The phrases of SPAM_PHRASES found in the data, each once, on word boundaries (no letter or digit either side). */
export const foundPhrases = (data: Record<string, RawValue>) => {
  const all = texts(data).join("\n");
  return SPAM_PHRASES.filter((_, i) => {
    const pattern = patterns()[i] as RegExp;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(all); match; match = pattern.exec(all)) {
      if (onWordBoundaries(all, match.index, match.index + match[0].length)) return true;
      // The next occurrence may overlap this one.
      pattern.lastIndex = match.index + 1;
    }
    return false;
  });
};

const filledHoneypots = (ctx: SpamContext) => [
  ...HONEYPOT_FIELDS.filter((f) => (ctx.controls[f] ?? "").trim() !== "").map((f) => `_${f}`),
  ...(ctx.honeypots ?? []),
];

function shownFor(ctx: SpamContext): number | undefined {
  const raw = ctx.controls[SHOWN_AT_FIELD];
  if (!raw || !/^\d{10,16}$/.test(raw.trim())) return undefined;
  const elapsed = ctx.now - Number(raw);
  // A timestamp in the future means the sender's clock is off: the signal cannot judge it.
  return elapsed >= 0 ? elapsed : undefined;
}

/** The signals of spec part 8, one entry each: a new signal is one more entry. */
export const SIGNALS: readonly SpamSignal[] = [
  {
    name: "honeypot",
    score: 100,
    appliesTo: ALL,
    points: (ctx) => (filledHoneypots(ctx).length > 0 ? 100 : 0),
    detail: (ctx) => `${filledHoneypots(ctx).join(", ")} filled`,
  },
  {
    name: "too_fast",
    score: 40,
    appliesTo: BROWSERS,
    points: (ctx) => {
      const elapsed = shownFor(ctx);
      return elapsed !== undefined && elapsed < TOO_FAST_MS ? 40 : 0;
    },
    detail: (ctx) => `submitted ${shownFor(ctx)} ms after the form was shown`,
  },
  {
    name: "missing_referer",
    score: 30,
    appliesTo: BROWSERS,
    points: (ctx) => ((ctx.referer ?? "").trim() === "" ? 30 : 0),
    detail: () => "no Referer header",
  },
  {
    name: "bot_user_agent",
    score: 30,
    appliesTo: BROWSERS,
    points: (ctx) => {
      const ua = (ctx.userAgent ?? "").trim();
      return ua === "" || BOT_USER_AGENTS.some((pattern) => pattern.test(ua)) ? 30 : 0;
    },
    detail: (ctx) => {
      const ua = (ctx.userAgent ?? "").trim();
      return ua ? `user agent "${ua.slice(0, 100)}"` : "no user agent";
    },
  },
  {
    name: "duplicate",
    score: 25,
    appliesTo: ["generic", "partner_automation"],
    points: (ctx) => (ctx.duplicate ? 25 : 0),
    detail: () => "the same data came from this IP within 24 hours",
  },
  {
    name: "ip_rate",
    score: 20,
    appliesTo: BROWSERS,
    points: (ctx) => (ctx.ipRate.minute > RATE_LIMITS.perMinute || ctx.ipRate.hour > RATE_LIMITS.perHour ? 20 : 0),
    detail: (ctx) => `${ctx.ipRate.minute} this minute, ${ctx.ipRate.hour} this hour from this IP`,
  },
  {
    name: "excessive_urls",
    score: 20,
    appliesTo: ALL,
    points: (ctx) => (countUrls(ctx.data) > MAX_URLS ? 20 : 0),
    detail: (ctx) => `${countUrls(ctx.data)} links`,
  },
  {
    name: "spam_phrases",
    score: 10,
    appliesTo: ALL,
    points: (ctx) => Math.min(30, foundPhrases(ctx.data).length * 10),
    detail: (ctx) => foundPhrases(ctx.data).join(", "),
  },
];

/** The sum of the signals that fired, capped at 100; above 70 is spam. `signals` is for tests. */
export function scoreSpam(ctx: SpamContext, signalList: readonly SpamSignal[] = SIGNALS): SpamVerdict {
  const signals: SpamSignalHit[] = [];
  for (const signal of signalList) {
    if (!signal.appliesTo.includes(ctx.source)) continue;
    const points = signal.points(ctx);
    if (points > 0) signals.push({ name: signal.name, score: points, detail: signal.detail(ctx) });
  }
  const score = Math.min(
    100,
    signals.reduce((sum, s) => sum + s.score, 0),
  );
  return { score, isSpam: score > SPAM_THRESHOLD, signals };
}

/** Which signals apply to which source, for docs and the signal-table test. */
export const signalsFor = (source: WebhookSource) => SIGNALS.filter((s) => s.appliesTo.includes(source)).map((s) => s.name);
