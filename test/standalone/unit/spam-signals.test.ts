import fc from "fast-check";
import {
  BOT_USER_AGENTS,
  countUrls,
  foundPhrases,
  SIGNALS,
  SPAM_PHRASES,
  SPAM_THRESHOLD,
  type SpamContext,
  type SpamSignal,
  scoreSpam,
  signalsFor,
} from "../../../lib/spam/signals";

const NOW = Date.UTC(2026, 0, 15, 12, 0, 30);
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

/** A browser submission that no signal describes: score 0. */
const ctx = (overrides: Partial<SpamContext> = {}): SpamContext => ({
  source: "generic",
  data: { email: "ada@example.com", message: "Hello, I would like a quote." },
  controls: {},
  referer: "https://forms.example.com/contact",
  userAgent: CHROME,
  now: NOW,
  duplicate: false,
  ipRate: { minute: 1, hour: 1 },
  ...overrides,
});

const fired = (c: SpamContext) => scoreSpam(c).signals.map((s) => s.name);

describe("the score model", () => {
  test("a clean browser submission scores 0 with no signals", () => {
    expect(scoreSpam(ctx())).toEqual({ score: 0, isSpam: false, signals: [] });
  });

  test("SIGNALS is one list with the spec's scores, one entry per signal", () => {
    expect(SIGNALS.map((s) => [s.name, s.score])).toEqual([
      ["honeypot", 100],
      ["too_fast", 40],
      ["missing_referer", 30],
      ["bot_user_agent", 30],
      ["duplicate", 25],
      ["ip_rate", 20],
      ["excessive_urls", 20],
      ["spam_phrases", 10],
    ]);
    expect(new Set(SIGNALS.map((s) => s.name)).size).toBe(SIGNALS.length);
    expect(SPAM_THRESHOLD).toBe(70);
  });

  test("which signals apply to which source", () => {
    expect(signalsFor("generic")).toEqual([
      "honeypot",
      "too_fast",
      "missing_referer",
      "bot_user_agent",
      "duplicate",
      "ip_rate",
      "excessive_urls",
      "spam_phrases",
    ]);
    // No browser signals (Referer, too fast, user agent) and no per-IP rate for server-to-server
    // senders; the ads platform's lead id already deduplicates its leads.
    expect(signalsFor("partner_ads")).toEqual(["honeypot", "excessive_urls", "spam_phrases"]);
    expect(signalsFor("partner_automation")).toEqual(["honeypot", "duplicate", "excessive_urls", "spam_phrases"]);
  });

  test("every signal that fires is listed with its name, points and a detail", () => {
    const verdict = scoreSpam(
      ctx({
        controls: { hp: "x", ts: String(NOW - 500) },
        referer: undefined,
        userAgent: "curl/8.4.0",
        duplicate: true,
        ipRate: { minute: 6, hour: 6 },
        data: { message: "casino http://a.example http://b.example http://c.example" },
      }),
    );
    expect(verdict.signals).toEqual([
      { name: "honeypot", score: 100, detail: "_hp filled" },
      { name: "too_fast", score: 40, detail: "submitted 500 ms after the form was shown" },
      { name: "missing_referer", score: 30, detail: "no Referer header" },
      { name: "bot_user_agent", score: 30, detail: 'user agent "curl/8.4.0"' },
      { name: "duplicate", score: 25, detail: "the same data came from this IP within 24 hours" },
      { name: "ip_rate", score: 20, detail: "6 this minute, 6 this hour from this IP" },
      { name: "excessive_urls", score: 20, detail: "3 links" },
      { name: "spam_phrases", score: 10, detail: "casino" },
    ]);
    // 265 points in all, capped.
    expect(verdict.score).toBe(100);
    expect(verdict.isSpam).toBe(true);
  });
});

describe("the cap and the threshold", () => {
  test("the score is capped at 100", () => {
    const verdict = scoreSpam(ctx({ controls: { hp: "bot", ts: String(NOW) }, referer: undefined, userAgent: "" }));
    expect(verdict.signals.reduce((sum, s) => sum + s.score, 0)).toBe(200);
    expect(verdict.score).toBe(100);
  });

  test("exactly 70 is not spam (too fast 40 + missing Referer 30)", () => {
    const verdict = scoreSpam(ctx({ controls: { ts: String(NOW - 100) }, referer: undefined }));
    expect(verdict.score).toBe(70);
    expect(verdict.isSpam).toBe(false);
  });

  test("75 is spam (too fast 40 + duplicate 25 + one phrase 10)", () => {
    const verdict = scoreSpam(ctx({ controls: { ts: String(NOW - 100) }, duplicate: true, data: { m: "buy now" } }));
    expect(verdict.score).toBe(75);
    expect(verdict.isSpam).toBe(true);
  });

  // Every spec score is a multiple of 5, so 71 needs a crafted signal: which is also how a new
  // signal is added (one more entry in the list).
  const extra = (points: number): SpamSignal => ({
    name: "crafted",
    score: points,
    appliesTo: ["generic"],
    points: (c) => (c.data.crafted ? points : 0),
    detail: () => "crafted for the test",
  });

  test.each([
    [69, false],
    [70, false],
    [71, true],
    [100, true],
  ])("a score of %i: spam %s", (points, spam) => {
    const verdict = scoreSpam(ctx({ data: { crafted: "yes" } }), [...SIGNALS, extra(points)]);
    expect(verdict).toEqual({
      score: points,
      isSpam: spam,
      signals: [{ name: "crafted", score: points, detail: "crafted for the test" }],
    });
  });

  test("71 composed with a spec signal: missing Referer 30 + a crafted 41", () => {
    const verdict = scoreSpam(ctx({ referer: undefined, data: { crafted: "yes" } }), [...SIGNALS, extra(41)]);
    expect(verdict.score).toBe(71);
    expect(verdict.isSpam).toBe(true);
  });

  test("a new signal is one entry; it applies only to its sources", () => {
    const signal = extra(15);
    expect(scoreSpam(ctx({ data: { crafted: "1" } }), [...SIGNALS, signal]).score).toBe(15);
    expect(scoreSpam(ctx({ source: "partner_ads", data: { crafted: "1" } }), [...SIGNALS, signal]).score).toBe(0);
  });
});

describe("honeypot (+100)", () => {
  test.each(["hp", "gotcha"])("_%s filled fires", (field) => {
    const verdict = scoreSpam(ctx({ controls: { [field]: "http://spam.example" } }));
    expect(verdict.signals).toEqual([{ name: "honeypot", score: 100, detail: `_${field} filled` }]);
    expect(verdict.isSpam).toBe(true);
  });

  test.each([
    ["empty", ""],
    ["white space", "   "],
  ])("an %s honeypot does not fire", (_label, value) => {
    expect(fired(ctx({ controls: { hp: value, gotcha: value } }))).toEqual([]);
  });

  test.each(["partner_ads", "partner_automation"] as const)("applies to %s too", (source) => {
    expect(fired(ctx({ source, controls: { hp: "x" } }))).toEqual(["honeypot"]);
  });
});

describe("too fast (+40)", () => {
  test.each([
    ["0 ms", 0],
    ["500 ms", 500],
    ["1999 ms", 1999],
  ])("fires %s after the form was shown", (_label, elapsed) => {
    expect(scoreSpam(ctx({ controls: { ts: String(NOW - elapsed) } })).signals).toEqual([
      { name: "too_fast", score: 40, detail: `submitted ${elapsed} ms after the form was shown` },
    ]);
  });

  test.each([
    ["exactly 2 s", String(NOW - 2000)],
    ["a minute", String(NOW - 60_000)],
    ["a future time (clock skew)", String(NOW + 5000)],
    ["absent", undefined],
    ["empty", ""],
    ["not a number", "yesterday"],
    ["an ISO date", new Date(NOW).toISOString()],
    ["epoch seconds (too long ago as milliseconds)", String(Math.floor(NOW / 1000))],
  ])("does not fire for %s", (_label, ts) => {
    expect(fired(ctx({ controls: ts === undefined ? {} : { ts } }))).toEqual([]);
  });
});

describe("missing Referer (+30)", () => {
  test.each([
    ["absent", undefined],
    ["empty", ""],
    ["blank", "  "],
  ])("fires when %s", (_label, referer) => {
    expect(scoreSpam(ctx({ referer })).signals).toEqual([{ name: "missing_referer", score: 30, detail: "no Referer header" }]);
  });
  test("does not fire with a Referer", () => {
    expect(fired(ctx({ referer: "https://anything.example/page" }))).toEqual([]);
  });
});

describe("bot user agent (+30)", () => {
  test.each([
    // Crawlers.
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
    "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)",
    "Sogou web spider/4.0",
    "CCBot/2.0 (https://commoncrawl.org/faq/)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "Scrapy/2.11.0 (+https://scrapy.org)",
    // Headless and automated browsers.
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1",
    "Mozilla/5.0 selenium webdriver",
    "Mozilla/5.0 (X11; Linux x86_64) Playwright/1.44",
    "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Electron/30.0.0 Safari/537.36",
    // HTTP libraries and command-line clients.
    "curl/8.4.0",
    "Wget/1.21.4",
    "python-requests/2.31.0",
    "Python-urllib/3.11",
    "Python/3.11 aiohttp/3.9.1",
    "python-httpx/0.27.0",
    "Go-http-client/2.0",
    "Java/17.0.2",
    "okhttp/4.12.0",
    "axios/1.6.8",
    "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)",
    "undici",
    "node",
    "libwww-perl/6.72",
    "Apache-HttpClient/4.5.14 (Java/17.0.2)",
    "Ruby",
    "GuzzleHttp/7",
    "PostmanRuntime/7.36.3",
    "insomnia/2023.5.8",
    "HTTPie/3.2.2",
  ])("fires for %s", (userAgent) => {
    expect(scoreSpam(ctx({ userAgent })).signals).toEqual([
      { name: "bot_user_agent", score: 30, detail: `user agent "${userAgent.slice(0, 100)}"` },
    ]);
  });

  test.each([
    ["absent", undefined],
    ["empty", ""],
    ["blank", "   "],
  ])("fires when the user agent is %s", (_label, userAgent) => {
    expect(scoreSpam(ctx({ userAgent })).signals).toEqual([{ name: "bot_user_agent", score: 30, detail: "no user agent" }]);
  });

  test.each([
    CHROME,
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
  ])("does not fire for the browser %s", (userAgent) => {
    expect(fired(ctx({ userAgent }))).toEqual([]);
  });

  test("the patterns are grouped in three families", () => {
    expect(BOT_USER_AGENTS).toHaveLength(3);
  });
});

describe("duplicate (+25) and per-IP rate (+20)", () => {
  test("duplicate fires on the evidence, and not without it", () => {
    expect(fired(ctx({ duplicate: true }))).toEqual(["duplicate"]);
    expect(fired(ctx({ duplicate: false }))).toEqual([]);
  });

  test.each([
    [{ minute: 5, hour: 5 }, false],
    [{ minute: 6, hour: 6 }, true],
    [{ minute: 1, hour: 20 }, false],
    [{ minute: 1, hour: 21 }, true],
    [{ minute: 0, hour: 0 }, false],
  ])("ip rate %o: fires %s", (ipRate, fires) => {
    expect(scoreSpam(ctx({ ipRate })).signals).toEqual(
      fires
        ? [{ name: "ip_rate", score: 20, detail: `${ipRate.minute} this minute, ${ipRate.hour} this hour from this IP` }]
        : [],
    );
  });
});

describe("excessive URLs (+20)", () => {
  test("more than 2 links across all text values fire; 2 do not", () => {
    expect(countUrls({ a: "see https://one.example and http://two.example" })).toBe(2);
    expect(fired(ctx({ data: { a: "see https://one.example and http://two.example" } }))).toEqual([]);
    const three = { a: "https://one.example", b: ["x www.two.example/page", "HTTP://THREE.EXAMPLE/x?y=1"] };
    expect(countUrls(three)).toBe(3);
    expect(scoreSpam(ctx({ data: three })).signals).toEqual([{ name: "excessive_urls", score: 20, detail: "3 links" }]);
  });

  test("a link with www. counts once; bare words and e-mail addresses are not links", () => {
    expect(countUrls({ a: "https://www.example.com/a" })).toBe(1);
    expect(countUrls({ a: "example.com ada@example.com www dot example" })).toBe(0);
  });
});

describe("spam phrases (+10 each, at most 30)", () => {
  test.each([
    ["Casino", ["casino"]],
    ["Best CASINO bonus!", ["casino"]],
    ["(casino)", ["casino"]],
    ["casinox", []],
    ["xcasino", []],
    ["casino2", []],
    ["click\n  here", ["click here"]],
    ["We offer SEO Services.", ["seo services"]],
    ["it is 100% free", ["100% free"]],
    ["risk-free", ["risk-free"]],
    ["casino casino casino", ["casino"]],
  ])("%j finds %j", (text, phrases) => {
    expect(foundPhrases({ message: text })).toEqual(phrases);
  });

  test.each([
    [["casino"], 10],
    [["casino", "forex"], 20],
    [["casino", "forex", "viagra"], 30],
    [["casino", "forex", "viagra", "bitcoin", "escort"], 30],
  ])("%j scores %i", (phrases, points) => {
    const verdict = scoreSpam(ctx({ data: { message: phrases.join(" and ") } }));
    // Listed in the order of SPAM_PHRASES, each once.
    const detail = SPAM_PHRASES.filter((p) => phrases.includes(p)).join(", ");
    expect(verdict.signals).toEqual([{ name: "spam_phrases", score: points, detail }]);
  });

  test("phrases are searched in every field, lists included", () => {
    expect(foundPhrases({ a: "hello", b: ["x", "Buy Now"] })).toEqual(["buy now"]);
  });

  test.each([
    ["a letter of another script before or after", "écasino casinoé 日casino", []],
    ["an astral letter (a surrogate pair) before or after", "\u{1D49C}casino casino\u{1D49C}", []],
    ["an astral letter that is not a letter or digit (an emoji)", "\u{1F3B0}casino\u{1F3B0}", ["casino"]],
    ["a second occurrence on boundaries after a first one inside a word", "casinos and casino", ["casino"]],
    ["overlapping phrases", "congratulations you have won", ["you have won", "congratulations you"]],
  ])("%s", (_name, text, phrases) => {
    expect(foundPhrases({ message: text })).toEqual(phrases);
  });

  test("finds what one lookaround pattern per phrase finds, for any text", () => {
    // The patterns this module used before the first check got cheaper: the reference.
    const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const reference = SPAM_PHRASES.map(
      (phrase) =>
        [phrase, new RegExp(`(?<![\\p{L}\\p{N}])${escaped(phrase).replace(/ +/g, "\\s+")}(?![\\p{L}\\p{N}])`, "iu")] as const,
    );
    const pieces = fc.oneof(
      fc.constantFrom(...SPAM_PHRASES.map((p) => p.replace(/ /g, " \t")), ...SPAM_PHRASES.map((p) => p.toUpperCase())),
      fc.constantFrom(" ", "\n", "-", ".", "%", "é", "ß", "日", "7", "x", "\u{1D49C}", "\u{1F3B0}", "\u212A", "\u017F", "\ud800"),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        const expected = reference.filter(([, pattern]) => pattern.test(text)).map(([phrase]) => phrase);
        expect(foundPhrases({ message: text })).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  test("the list is lower case and has no duplicates", () => {
    expect(SPAM_PHRASES.every((p) => p === p.toLowerCase())).toBe(true);
    expect(new Set(SPAM_PHRASES).size).toBe(SPAM_PHRASES.length);
  });
});

describe("server-to-server sources", () => {
  test.each(["partner_ads", "partner_automation"] as const)(
    "%s: no Referer, no user agent, instant, high rate: no browser signal",
    (source) => {
      const verdict = scoreSpam(
        ctx({
          source,
          referer: undefined,
          userAgent: undefined,
          controls: { ts: String(NOW) },
          ipRate: { minute: 50, hour: 500 },
        }),
      );
      expect(verdict).toEqual({ score: 0, isSpam: false, signals: [] });
    },
  );

  test("content signals still apply to them", () => {
    const data = { message: "casino forex http://a.example http://b.example http://c.example" };
    expect(fired(ctx({ source: "partner_ads", data }))).toEqual(["excessive_urls", "spam_phrases"]);
    expect(fired(ctx({ source: "partner_automation", data, duplicate: true }))).toEqual([
      "duplicate",
      "excessive_urls",
      "spam_phrases",
    ]);
    expect(fired(ctx({ source: "partner_ads", duplicate: true }))).toEqual([]);
  });
});
