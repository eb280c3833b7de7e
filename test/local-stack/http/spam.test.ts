import { randomUUID } from "node:crypto";
import { type Account, signupOwner } from "../../support/api";
import {
  BROWSER,
  CHROME_UA,
  freshIp,
  type Hook,
  newHook,
  newSite,
  signalNames,
  storedSubmission,
  submit,
  submitAndRead,
} from "../../support/spam-helpers";

/**
 * Spam scoring end to end (spec 3.3, part 8; docs/spam.md): each signal through the local
 * gateway, its absence, the cap, the threshold, the silent honeypot and which sources the
 * browser signals apply to. Every test sends from its own loopback IP (freshIp) so per-IP
 * evidence never leaks between tests.
 */
const unique = () => ({ email: `ada-${randomUUID()}@example.com`, message: "Hello, I would like a quote." });

let owner: Account;
let generic: Hook;
let ads: Hook;
let automation: Hook;
beforeAll(async () => {
  owner = await signupOwner("spam");
  const siteId = await newSite(owner);
  [generic, ads, automation] = await Promise.all([
    newHook(owner, siteId, "generic"),
    newHook(owner, siteId, "partner_ads"),
    newHook(owner, siteId, "partner_automation"),
  ]);
});

const signal = (item: Record<string, any>, name: string) =>
  (item.spam.signals as { name: string; score: number; detail: string }[]).find((s) => s.name === name);

describe("a clean browser submission", () => {
  test("scores 0, is not flagged, and records the client IP and headers", async () => {
    const ip = freshIp();
    const item = await submitAndRead(generic, ip, unique());
    expect(item.spam).toEqual({ score: 0, isSpam: false, signals: [] });
    expect(item.isSpam).toBe(false);
    expect(item.metadata).toEqual(expect.objectContaining({ ip, referer: BROWSER.referer, userAgent: CHROME_UA }));
  });
});

describe("honeypot (+100), silent", () => {
  test.each(["_hp", "_gotcha"])("%s filled: the same answer as a clean submission, stored flagged", async (field) => {
    const ip = freshIp();
    const clean = await submit(generic, ip, unique());
    const caught = await submit(generic, ip, { ...unique(), [field]: "I am a bot" });

    expect(caught.status).toBe(clean.status);
    expect(caught.status).toBe(200);
    expect(Object.keys(caught.body).sort()).toEqual(Object.keys(clean.body).sort());
    expect(caught.body).toEqual({
      success: true,
      submissionId: expect.stringMatching(/^sub_/),
      referenceId: expect.stringMatching(/^[A-Z0-9]+-\d+$/),
      fieldsMapped: clean.body.fieldsMapped,
    });
    expect(caught.headers["content-type"]).toBe(clean.headers["content-type"]);
    expect(Object.keys(caught.headers).sort()).toEqual(Object.keys(clean.headers).sort());

    const item = await storedSubmission(caught.body.submissionId);
    expect(item?.isSpam).toBe(true);
    expect(item?.spam).toEqual({
      score: 100,
      isSpam: true,
      signals: [{ name: "honeypot", score: 100, detail: `${field} filled` }],
    });
    // A control field: never stored as data.
    expect(item?.data).not.toHaveProperty(field);
    expect(item?.data).not.toHaveProperty(field.slice(1));
  });

  test("with _redirect both answer the same 303 to the thank-you page", async () => {
    const ip = freshIp();
    const redirect = "https://forms.example.com/thanks";
    const clean = await submit(generic, ip, { ...unique(), _redirect: redirect });
    const caught = await submit(generic, ip, { ...unique(), _redirect: redirect, _hp: "x" });
    expect(clean.status).toBe(303);
    expect(caught.status).toBe(303);
    expect(caught.headers.location).toMatch(/^https:\/\/forms\.example\.com\/thanks\?ref=[A-Z0-9]+-\d+$/);
    expect(caught.text).toBe(clean.text);
  });

  test("an empty honeypot does not fire", async () => {
    const item = await submitAndRead(generic, freshIp(), { ...unique(), _hp: "", _gotcha: "" });
    expect(item.spam.signals).toEqual([]);
  });
});

describe("too fast (+40): the _ts control field", () => {
  test("a form shown less than 2 s ago fires", async () => {
    const item = await submitAndRead(generic, freshIp(), { ...unique(), _ts: Date.now() - 300 });
    expect(signal(item, "too_fast")).toEqual({
      name: "too_fast",
      score: 40,
      detail: expect.stringMatching(/^submitted \d+ ms after/),
    });
    expect(item.spam.score).toBe(40);
    expect(item.data).not.toHaveProperty("_ts");
  });

  test("in a JSON body as a number too", async () => {
    const item = await submitAndRead(generic, freshIp(), {}, { json: { ...unique(), _ts: Date.now() } });
    expect(signalNames(item)).toEqual(["too_fast"]);
  });

  test.each([
    ["2 s or more ago", () => Date.now() - 2500],
    ["in the future", () => Date.now() + 60_000],
    ["malformed", () => "soon"],
  ])("a form shown %s does not fire", async (_label, ts) => {
    const item = await submitAndRead(generic, freshIp(), { ...unique(), _ts: ts() });
    expect(item.spam.signals).toEqual([]);
  });

  test("absent _ts: the signal does not apply", async () => {
    const item = await submitAndRead(generic, freshIp(), unique());
    expect(signal(item, "too_fast")).toBeUndefined();
  });
});

describe("missing Referer (+30)", () => {
  test("fires without a Referer, not with one", async () => {
    const ip = freshIp();
    const without = await submitAndRead(generic, ip, unique(), { headers: { "user-agent": CHROME_UA } });
    expect(without.spam.signals).toEqual([{ name: "missing_referer", score: 30, detail: "no Referer header" }]);
    const withIt = await submitAndRead(generic, ip, unique());
    expect(withIt.spam.signals).toEqual([]);
  });
});

describe("bot user agent (+30)", () => {
  test.each([
    ["a crawler", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"],
    [
      "a headless browser",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
    ],
    ["an HTTP library", "python-requests/2.31.0"],
    ["a command-line client", "curl/8.4.0"],
    ["an empty user agent", ""],
  ])("fires for %s", async (_label, userAgent) => {
    const item = await submitAndRead(generic, freshIp(), unique(), {
      headers: { referer: BROWSER.referer, "user-agent": userAgent },
    });
    expect(item.spam.signals).toEqual([
      { name: "bot_user_agent", score: 30, detail: userAgent ? `user agent "${userAgent.slice(0, 100)}"` : "no user agent" },
    ]);
  });

  test("fires with no user agent header at all", async () => {
    const item = await submitAndRead(generic, freshIp(), unique(), { headers: { referer: BROWSER.referer } });
    expect(signalNames(item)).toEqual(["bot_user_agent"]);
  });

  test("a normal browser does not fire", async () => {
    const item = await submitAndRead(generic, freshIp(), unique(), {
      headers: {
        referer: BROWSER.referer,
        "user-agent":
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      },
    });
    expect(item.spam.signals).toEqual([]);
  });
});

describe("duplicate (+25): same client IP and same normalized data", () => {
  test("the same data again from the same IP fires, even re-cased and re-spaced", async () => {
    const ip = freshIp();
    const data = unique();
    const first = await submitAndRead(generic, ip, data);
    expect(first.spam.signals).toEqual([]);
    const again = await submitAndRead(generic, ip, { message: ` ${data.message.toUpperCase()}  `, email: data.email });
    expect(again.spam.signals).toEqual([{ name: "duplicate", score: 25, detail: expect.stringContaining("24 hours") }]);
  });

  test("different data from the same IP does not fire", async () => {
    const ip = freshIp();
    await submitAndRead(generic, ip, unique());
    expect((await submitAndRead(generic, ip, unique())).spam.signals).toEqual([]);
  });

  test("the same data from another IP does not fire", async () => {
    const data = unique();
    await submitAndRead(generic, freshIp(), data);
    expect((await submitAndRead(generic, freshIp(), data)).spam.signals).toEqual([]);
  });

  test("repeats that lose an Idempotency-Key race leave the winner's duplicate marker in place", async () => {
    const ip = freshIp();
    const data = unique();
    const headers = { ...BROWSER, "idempotency-key": `race-${randomUUID()}` };
    const answers = await Promise.all(Array.from({ length: 6 }, () => submit(generic, ip, data, { headers })));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.submissionId)).size).toBe(1);
    // Without the key it is a new submission, and the same data from the same IP: a duplicate
    // (and, after seven posts in a minute, the IP rate too).
    expect(signalNames(await submitAndRead(generic, ip, data))).toContain("duplicate");
  });

  test("control fields (a new _ts each time) do not make data different", async () => {
    const ip = freshIp();
    const data = unique();
    await submitAndRead(generic, ip, { ...data, _ts: Date.now() - 60_000 });
    const again = await submitAndRead(generic, ip, { ...data, _ts: Date.now() - 30_000 });
    expect(signalNames(again)).toEqual(["duplicate"]);
  });
});

describe("excessive URLs (+20)", () => {
  test("3 links fire, 2 do not", async () => {
    const ip = freshIp();
    const two = await submitAndRead(generic, ip, { ...unique(), message: "https://a.example and www.b.example" });
    expect(two.spam.signals).toEqual([]);
    const three = await submitAndRead(generic, ip, {
      ...unique(),
      message: "https://a.example www.b.example",
      site: "http://c.example",
    });
    expect(three.spam.signals).toEqual([{ name: "excessive_urls", score: 20, detail: "3 links" }]);
  });
});

describe("spam phrases (+10 each, capped at 30)", () => {
  test.each([
    ["Casino", 10],
    ["Visit our CASINO", 10],
    ["casinox", 0],
    ["Casino, forex", 20],
    ["casino forex viagra", 30],
    ["casino forex viagra bitcoin payday loan", 30],
  ])("%j scores %i", async (message, points) => {
    const item = await submitAndRead(generic, freshIp(), { ...unique(), message });
    expect(signal(item, "spam_phrases")?.score ?? 0).toBe(points);
    expect(item.spam.score).toBe(points);
  });
});

describe("the score: sum, cap and threshold", () => {
  test("exactly 70 is stored as not spam (too fast 40 + missing Referer 30)", async () => {
    const item = await submitAndRead(
      generic,
      freshIp(),
      { ...unique(), _ts: Date.now() },
      { headers: { "user-agent": CHROME_UA } },
    );
    expect(signalNames(item)).toEqual(["missing_referer", "too_fast"]);
    expect(item.spam.score).toBe(70);
    expect(item.spam.isSpam).toBe(false);
    expect(item.isSpam).toBe(false);
  });

  test("75 is stored as spam (too fast 40 + duplicate 25 + one phrase 10)", async () => {
    const ip = freshIp();
    const data = { ...unique(), message: "Buy now" };
    expect((await submitAndRead(generic, ip, data)).spam.score).toBe(10);
    const item = await submitAndRead(generic, ip, { ...data, _ts: Date.now() });
    expect(signalNames(item)).toEqual(["duplicate", "spam_phrases", "too_fast"]);
    expect(item.spam.score).toBe(75);
    expect(item.spam.isSpam).toBe(true);
    expect(item.isSpam).toBe(true);
  });

  test("signals add up and the score is capped at 100; every listed signal has name, score and detail", async () => {
    const item = await submitAndRead(
      generic,
      freshIp(),
      { ...unique(), _ts: Date.now(), message: "casino http://a.example http://b.example http://c.example" },
      { headers: { "user-agent": "curl/8.4.0" } },
    );
    expect(signalNames(item)).toEqual(["bot_user_agent", "excessive_urls", "missing_referer", "spam_phrases", "too_fast"]);
    expect(item.spam.signals.reduce((sum: number, s: { score: number }) => sum + s.score, 0)).toBe(130);
    expect(item.spam.score).toBe(100);
    expect(item.isSpam).toBe(true);
    for (const s of item.spam.signals)
      expect(s).toEqual({ name: expect.any(String), score: expect.any(Number), detail: expect.any(String) });
  });
});

describe("which signals apply per source", () => {
  const lead = (extra: Record<string, unknown> = {}) => ({
    lead_id: `LD-${randomUUID()}`,
    api_version: "1.0",
    form_id: 7100000001,
    campaign_id: 8200000002,
    google_key: ads.secretKey,
    is_test: true,
    user_column_data: [
      { column_name: "Full Name", string_value: "Ada Lovelace", column_id: "FULL_NAME" },
      { column_name: "User Email", string_value: `ada-${randomUUID()}@example.com`, column_id: "EMAIL" },
    ],
    ...extra,
  });

  test("a server-to-server ads lead with no Referer or user agent, several a minute from one IP, is not penalized", async () => {
    const ip = freshIp();
    for (let i = 0; i < 7; i++) {
      const item = await submitAndRead(ads, ip, {}, { headers: {}, json: lead() });
      expect(item.spam).toEqual({ score: 0, isSpam: false, signals: [] });
    }
  });

  test("content signals still apply to ads leads", async () => {
    const item = await submitAndRead(
      ads,
      freshIp(),
      {},
      {
        headers: {},
        json: lead({
          user_column_data: [
            { column_id: "EMAIL", string_value: "casino@example.com" },
            { column_id: "CITY", string_value: "Casino forex" },
          ],
        }),
      },
    );
    expect(item.spam.signals).toEqual([{ name: "spam_phrases", score: 20, detail: "casino, forex" }]);
  });

  test("an automation platform post with no browser headers and an instant _ts is not penalized", async () => {
    const item = await submitAndRead(automation, freshIp(), { ...unique(), _ts: Date.now() }, { headers: {} });
    expect(item.spam).toEqual({ score: 0, isSpam: false, signals: [] });
  });

  test("the automation platform's exact repeat is still a duplicate", async () => {
    const ip = freshIp();
    const data = unique();
    await submitAndRead(automation, ip, data, { headers: {} });
    expect(signalNames(await submitAndRead(automation, ip, data, { headers: {} }))).toEqual(["duplicate"]);
  });

  test("the same generic post without browser headers is penalized", async () => {
    const item = await submitAndRead(generic, freshIp(), { ...unique(), _ts: Date.now() }, { headers: {} });
    expect(signalNames(item)).toEqual(["bot_user_agent", "missing_referer", "too_fast"]);
    expect(item.spam.score).toBe(100);
  });
});

describe("the client IP is the one API Gateway saw", () => {
  test("a forged X-Forwarded-For is ignored: stored IP and evidence follow the connection", async () => {
    const ip = freshIp();
    const data = unique();
    const first = await submitAndRead(generic, ip, data, { headers: { ...BROWSER, "x-forwarded-for": "203.0.113.9" } });
    expect(first.metadata.ip).toBe(ip);
    expect(JSON.stringify(first)).not.toContain("203.0.113.9");
    // Another forged address does not make the same sender new: still a duplicate.
    const second = await submitAndRead(generic, ip, data, {
      headers: { ...BROWSER, "x-forwarded-for": "198.51.100.23, 10.0.0.1" },
    });
    expect(second.metadata.ip).toBe(ip);
    expect(signalNames(second)).toEqual(["duplicate"]);
    // And claiming the first sender's forged address from elsewhere does not make a duplicate.
    const other = freshIp();
    const third = await submitAndRead(generic, other, data, { headers: { ...BROWSER, "x-forwarded-for": "203.0.113.9" } });
    expect(third.metadata.ip).toBe(other);
    expect(third.spam.signals).toEqual([]);
  });
});
