import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import type { HttpAttempt } from "../../../lib/outbound/http";
import { postWebhook } from "../../../lib/outbound/http";
import { deliveryMessageSchema, hopDelaySeconds } from "../../../lib/outbound/messages";
import { deliveryIdFor, submissionCreatedPayload } from "../../../lib/outbound/payload";
import {
  attemptError,
  attemptOutcome,
  MAX_RETRY_AFTER_MS,
  maxAttempts,
  parseRetryAfter,
  retrySchedule,
  withJitter,
} from "../../../lib/outbound/schedule";
import { deliveryHeaders, newSigningSecret, sign } from "../../../lib/outbound/signing";
import { checkTargetUrl, guardedLookup, parseTargetUrl } from "../../../lib/outbound/ssrf";

const response = (overrides: Partial<HttpAttempt>): HttpAttempt => ({
  statusCode: null,
  durationMs: 5,
  error: null,
  retryAfter: null,
  location: null,
  refused: false,
  ...overrides,
});

describe("Standard Webhooks signing", () => {
  test("secrets are whsec_ + base64 of 32 random bytes, never repeated", () => {
    const a = newSigningSecret();
    const b = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  test("the standardwebhooks package verifies what we sign, and signs the same bytes", () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ type: "submission.created", data: { name: "Zoë ✓", n: 1 } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders(secret, "dlv_abc", timestamp, body);
    expect(headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": "dlv_abc",
      "webhook-timestamp": String(timestamp),
    });
    expect(headers["user-agent"]).toMatch(/^Inlet-Webhooks\//);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(secret).sign("dlv_abc", new Date(timestamp * 1000), body)).toBe(headers["webhook-signature"]);
  });

  test("a changed body, id, timestamp or secret fails verification", () => {
    const secret = newSigningSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders(secret, "dlv_1", timestamp, "{}");
    expect(() => new Webhook(secret).verify('{"a":1}', headers)).toThrow();
    expect(() => new Webhook(secret).verify("{}", { ...headers, "webhook-id": "dlv_2" })).toThrow();
    expect(() => new Webhook(secret).verify("{}", { ...headers, "webhook-timestamp": String(timestamp + 1) })).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify("{}", headers)).toThrow();
  });

  test("a signature is v1, then base64 HMAC-SHA256 of id.timestamp.body keyed with the decoded secret", () => {
    // A fixed vector, computed independently: HMAC-SHA256(key=bytes 0..31, "msg_1.1700000000.{}").
    const secret = `whsec_${Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString("base64")}`;
    const expected = new Webhook(secret).sign("msg_1", new Date(1_700_000_000_000), "{}");
    expect(sign(secret, "msg_1", 1_700_000_000, "{}")).toBe(expected);
    expect(() => sign("not-a-secret", "msg_1", 1, "{}")).toThrow();
  });
});

describe("delivery ids and the payload", () => {
  test("one deterministic dlv_ id per (submission, endpoint)", () => {
    const id = deliveryIdFor("sub_1", "ep_1");
    expect(id).toMatch(/^dlv_[0-9A-Za-z]{22}$/);
    expect(deliveryIdFor("sub_1", "ep_1")).toBe(id);
    expect(deliveryIdFor("sub_1", "ep_2")).not.toBe(id);
    expect(deliveryIdFor("sub_2", "ep_1")).not.toBe(id);
    // No ambiguity from concatenation.
    expect(deliveryIdFor("sub_1e", "p_1")).not.toBe(id);
  });

  test("submission.created carries the submission, its verdict and its lead", () => {
    // Field keys are user data: `__proto__` is an ordinary key (lib/store/submissions.ts reads data so).
    const data = Object.assign(Object.create(null), JSON.parse('{"email":"a@b.co","__proto__":"kept"}'));
    const body = submissionCreatedPayload(
      {
        id: "sub_1",
        orgId: "org_1",
        siteId: "site_1",
        formId: "form_1",
        webhookId: "wh_1",
        referenceId: "REF-1",
        data,
        metadata: { source: "api", userAgent: null, referer: null, ip: "192.0.2.1", droppedFiles: [], ignoredFields: [] },
        spam: { isSpam: false, score: 0, signals: [] } as never,
        createdAt: "2026-01-01T00:00:00.000Z",
      },
      { score: 80, grade: "hot", reasons: ["x"] },
      "2026-01-01T00:00:01.000Z",
    );
    const event = JSON.parse(body);
    expect(event).toEqual({
      type: "submission.created",
      timestamp: "2026-01-01T00:00:01.000Z",
      data: {
        submissionId: "sub_1",
        referenceId: "REF-1",
        formId: "form_1",
        siteId: "site_1",
        fields: expect.objectContaining({ email: "a@b.co" }),
        metadata: expect.objectContaining({ source: "api", ip: "192.0.2.1" }),
        spam: { isSpam: false, score: 0, signals: [] },
        lead: { score: 80, grade: "hot", reasons: ["x"] },
        createdAt: "2026-01-01T00:00:00.000Z",
      },
    });
    expect(Object.hasOwn(event.data.fields, "__proto__")).toBe(true);
    expect(body).toContain('"fields":{"email":"a@b.co","__proto__":"kept"}');
  });
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

describe("internal delivery messages", () => {
  test("a retry hours away travels in hops of at most 15 minutes, never early", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    const at = (ms: number) => new Date(now + ms).toISOString();
    expect(hopDelaySeconds(at(5 * 3600_000), now)).toBe(900);
    expect(hopDelaySeconds(at(901_000), now)).toBe(900);
    expect(hopDelaySeconds(at(899_500), now)).toBe(900);
    expect(hopDelaySeconds(at(5_200), now)).toBe(6);
    expect(hopDelaySeconds(at(0), now)).toBe(0);
    expect(hopDelaySeconds(at(-60_000), now)).toBe(0);
    // Hop by hop: 5 hours is 20 hops of 900 s.
    let clock = now;
    let hops = 0;
    const due = at(5 * 3600_000);
    while (Date.parse(due) > clock) {
      clock += hopDelaySeconds(due, clock) * 1000;
      hops += 1;
    }
    expect(hops).toBe(20);
  });

  test("the versioned schema producers and the consumer share", () => {
    const good = {
      v: 1,
      kind: "delivery",
      deliveryId: `dlv_${"a".repeat(22)}`,
      attempt: 2,
      dueAt: "2026-01-01T00:00:00.000Z",
      token: "abc",
    };
    expect(deliveryMessageSchema.safeParse(good).success).toBe(true);
    for (const bad of [
      { ...good, v: 2 },
      { ...good, kind: "other" },
      { ...good, deliveryId: "dlv_short" },
      { ...good, attempt: 0 },
      { ...good, dueAt: "tomorrow" },
      { ...good, token: "" },
      { ...good, extra: true },
    ]) {
      expect(deliveryMessageSchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe("the SSRF guard", () => {
  test("only http and https URLs with a host", () => {
    for (const url of [
      "ftp://example.com/",
      "file:///etc/passwd",
      "gopher://x/",
      "javascript:alert(1)",
      "not a url",
      "http://",
      `https://e.com/${"a".repeat(2100)}`,
    ]) {
      expect(() => parseTargetUrl(url)).toThrow();
    }
    expect(parseTargetUrl("https://example.com/hook").hostname).toBe("example.com");
  });

  test("refuses literal and resolved private targets when the guard is on", async () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://127.0.0.1:8080/",
      "http://[::1]/",
      "http://[::ffff:169.254.169.254]/",
      "http://10.1.2.3/",
      "http://0.0.0.0/",
      "http://localhost/",
      "http://2130706433/",
      "http://0x7f.1/",
    ]) {
      await expect(checkTargetUrl(url, false)).rejects.toThrow(/refused address|cannot be resolved/);
    }
    await expect(checkTargetUrl("http://nonexistent.invalid/", false)).rejects.toThrow(/cannot be resolved/);
    // With the guard off (the local stack), loopback is fine.
    await expect(checkTargetUrl("http://127.0.0.1:8080/", true)).resolves.toBeInstanceOf(URL);
  });

  test("the connection-time lookup refuses a host whose addresses include a refused one", async () => {
    const lookup = guardedLookup(false);
    const result = await new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      lookup("localhost", { all: false }, (error, address) => resolve({ error, address })),
    );
    expect(result.error?.message).toMatch(/refused address \(loopback\)/);
    const open = guardedLookup(true);
    const ok = await new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      open("localhost", { all: true }, (error, address) => resolve({ error, address })),
    );
    expect(ok.error).toBeNull();
    expect(Array.isArray(ok.address)).toBe(true);
  });
});

describe("one HTTP attempt", () => {
  let server: ReturnType<typeof createServer>;
  let base: string;
  const seen: { headers: Record<string, unknown>; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push({ headers: req.headers, body });
        if (req.url === "/redirect") {
          res.writeHead(302, { location: "/ok" });
          res.end();
        } else if (req.url === "/slow") {
          setTimeout(() => res.writeHead(200).end("late"), 3000).unref();
        } else if (req.url === "/busy") {
          res.writeHead(429, { "retry-after": "30" }).end();
        } else {
          res.writeHead(200).end("fine");
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const send = (path: string, extra: { allowPrivate?: boolean; timeoutMs?: number; host?: string } = {}) =>
    postWebhook({
      url: `${extra.host ?? base}${path}`,
      headers: { "content-type": "application/json", "webhook-id": "dlv_x" },
      body: '{"a":1}',
      timeoutMs: extra.timeoutMs ?? 2000,
      allowPrivate: extra.allowPrivate ?? true,
    });

  test("posts the body with its headers and reports the status", async () => {
    const result = await send("/ok");
    expect(result).toMatchObject({ statusCode: 200, error: null, refused: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen.at(-1)).toMatchObject({
      body: '{"a":1}',
      headers: expect.objectContaining({ "webhook-id": "dlv_x", "content-length": "7" }),
    });
  });

  test("never follows a redirect", async () => {
    const before = seen.length;
    const result = await send("/redirect");
    expect(result).toMatchObject({ statusCode: 302, location: "/ok" });
    expect(seen.length).toBe(before + 1);
  });

  test("reports Retry-After", async () => {
    expect(await send("/busy")).toMatchObject({ statusCode: 429, retryAfter: "30" });
  });

  test("gives up after the timeout", async () => {
    const result = await send("/slow", { timeoutMs: 300 });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/timed out after 300 ms/);
    expect(result.durationMs).toBeLessThan(2000);
  });

  test("with the guard on, never connects to loopback, by literal or by name", async () => {
    const before = seen.length;
    const literal = await send("/ok", { allowPrivate: false });
    expect(literal).toMatchObject({ statusCode: null, refused: true });
    const port = new URL(base).port;
    const byName = await send("/ok", { allowPrivate: false, host: `http://localhost:${port}` });
    expect(byName).toMatchObject({ statusCode: null, refused: true });
    expect(byName.error).toMatch(/refused address/);
    expect(seen.length).toBe(before);
  });

  test("a closed port is a failure, not a throw", async () => {
    const result = await send("/", { host: "http://127.0.0.1:1" });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});
