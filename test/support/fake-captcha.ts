import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the captcha vendors' siteverify endpoints (docs/spam.md, "Captcha").
 * It runs in jest's global-setup process while tests run in worker processes, so every outcome
 * follows from the TOKEN alone:
 *
 * | token | answer |
 * |---|---|
 * | `pass-<uuid>` | success (score 0.9 on the score path) |
 * | `score-<n>-<uuid>` | success with score n (score path) |
 * | `host-<hostname>-<uuid>` | success, solved on `<hostname>` |
 * | `fail-<uuid>` | `success: false`, `invalid-input-response` |
 * | `slow-<uuid>` | success, after SLOW_MS (beyond CAPTCHA_TIMEOUT_MS) |
 * | `slowbody-<uuid>` | headers at once, the body after SLOW_MS |
 * | `http500-<uuid>` | HTTP 500 |
 * | `garbage-<uuid>` | HTTP 200 with a body that is not JSON |
 * | `nosuccess-<uuid>` | HTTP 200 with JSON lacking `success` |
 *
 * Like the real providers a token verifies once: a replay answers `timeout-or-duplicate`. The
 * hostname of a passing token is DEFAULT_HOSTNAME unless the token names one.
 *
 * It also refuses what a real provider should never be sent: anything but a form-encoded POST,
 * a missing `secret`, `response` or `remoteip`, any query string (the secret must never travel
 * in a URL), and secrets not starting with `sk-test-` (`invalid-input-secret`). What it received
 * for a token is kept and served at `GET /requests/<token>`, so a test can assert exactly what
 * the service sent.
 */
export const SCORE_PATH = "/recaptcha/api/siteverify";
export const CHALLENGE_PATH = "/hcaptcha/siteverify";
export const DEFAULT_HOSTNAME = "forms.example.com";
/**
 * A slow answer takes this long: well past the test stack's CAPTCHA_TIMEOUT_MS (1000), by more
 * than a loaded machine stalls the stack's process (at 2500 a CI run under two jest workers once
 * saw the stalled body arrive before the stack's abort fired: 200 instead of 503). Nothing waits
 * for it: the intake gives up at the timeout.
 */
export const SLOW_MS = 6000;
export const TEST_TIMEOUT_MS = 1000;
/** Secrets the fake accepts start with this. */
export const SECRET_PREFIX = "sk-test-";

export type TokenKind = "pass" | "fail" | "slow" | "slowbody" | "http500" | "garbage" | "nosuccess";

/** A fresh token with a deterministic outcome: `captchaToken("pass")`, `captchaToken("score", 0.3)`, `captchaToken("host", "evil.example")`. */
export function captchaToken(kind: TokenKind): string;
export function captchaToken(kind: "score", score: number): string;
export function captchaToken(kind: "host", hostname: string): string;
export function captchaToken(kind: string, arg?: string | number): string {
  return arg === undefined ? `${kind}-${randomUUID()}` : `${kind}-${arg}-${randomUUID()}`;
}

/** What the fake received for one token. */
export interface ReceivedRequest {
  path: string;
  method: string;
  contentType: string;
  query: string;
  params: Record<string, string>;
}

const UUID = /^(.*)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

interface Verdict {
  status?: number;
  raw?: string;
  json?: Record<string, unknown>;
  delay?: "headers" | "body";
}

function verdict(kind: "score" | "challenge", token: string): Verdict {
  const match = UUID.exec(token);
  const spec = match?.[1] ?? "";
  const ok = (extra: Record<string, unknown> = {}) => ({
    json: {
      success: true,
      challenge_ts: new Date().toISOString(),
      hostname: DEFAULT_HOSTNAME,
      ...(kind === "score" ? { score: 0.9, action: "submit" } : {}),
      ...extra,
    },
  });
  const fail = (code: string) => ({ json: { success: false, "error-codes": [code] } });
  if (!match) return fail("invalid-input-response");
  if (spec === "pass") return ok();
  if (spec === "fail") return fail("invalid-input-response");
  if (spec === "slow") return { ...ok(), delay: "headers" };
  if (spec === "slowbody") return { ...ok(), delay: "body" };
  if (spec === "http500") return { status: 500, raw: "Internal Server Error" };
  if (spec === "garbage") return { status: 200, raw: "<html><body>Service temporarily overloaded</body></html>" };
  if (spec === "nosuccess") return { json: { hostname: DEFAULT_HOSTNAME } };
  if (spec.startsWith("score-")) {
    const score = Number(spec.slice("score-".length));
    return Number.isFinite(score) ? ok(kind === "score" ? { score } : {}) : fail("invalid-input-response");
  }
  if (spec.startsWith("host-")) return ok({ hostname: spec.slice("host-".length) });
  return fail("invalid-input-response");
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export interface FakeCaptcha {
  server: Server;
  url: string;
  scoreUrl: string;
  challengeUrl: string;
  close(): Promise<void>;
}

/** Starts the fake on a free loopback port. */
export async function startFakeCaptcha(): Promise<FakeCaptcha> {
  const seen = new Set<string>();
  const received = new Map<string, ReceivedRequest>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    if (req.method === "GET" && url.pathname.startsWith("/requests/")) {
      const request = received.get(decodeURIComponent(url.pathname.slice("/requests/".length)));
      return request ? json(res, 200, request) : json(res, 404, { error: "no such token" });
    }
    const kind = url.pathname === SCORE_PATH ? "score" : url.pathname === CHALLENGE_PATH ? "challenge" : undefined;
    if (!kind) return json(res, 404, { error: "not found" });
    const body = await readBody(req);
    const contentType = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    const params = Object.fromEntries(new URLSearchParams(contentType === "application/x-www-form-urlencoded" ? body : ""));
    const token = params.response ?? "";
    if (token) received.set(token, { path: url.pathname, method: req.method ?? "", contentType, query: url.search, params });

    const refuse = (code: string) => json(res, 200, { success: false, "error-codes": [code] });
    if (req.method !== "POST") return refuse("not-post");
    if (url.search !== "") return refuse("secret-or-token-in-url");
    if (contentType !== "application/x-www-form-urlencoded") return refuse("not-form-encoded");
    if (!params.secret) return refuse("missing-input-secret");
    if (!token) return refuse("missing-input-response");
    if (!params.remoteip) return refuse("missing-remoteip");
    if (!params.secret.startsWith(SECRET_PREFIX)) return refuse("invalid-input-secret");
    // Tokens verify once, whatever the first answer was (as the vendors document).
    if (seen.has(token)) return refuse("timeout-or-duplicate");
    seen.add(token);

    const answer = verdict(kind, token);
    const send = () => {
      if (res.destroyed) return;
      if (answer.json) return json(res, answer.status ?? 200, answer.json);
      res.writeHead(answer.status ?? 200, { "content-type": "text/html" });
      res.end(answer.raw ?? "");
    };
    if (answer.delay === "headers") return later(SLOW_MS, send);
    if (answer.delay === "body") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"success": ');
      return later(SLOW_MS, () => {
        if (!res.destroyed) res.end(JSON.stringify(answer.json).replace(/^\{"success":/, ""));
      });
    }
    send();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  // Never the reason the setup process stays alive (a failed stack start must still exit).
  server.unref();
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    server,
    url,
    scoreUrl: `${url}${SCORE_PATH}`,
    challengeUrl: `${url}${CHALLENGE_PATH}`,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the fake received for `token` (from a test worker: the fake runs in the setup process). */
export async function receivedFor(token: string): Promise<ReceivedRequest | undefined> {
  const base = process.env.FAKE_CAPTCHA_URL;
  if (!base)
    throw new Error("FAKE_CAPTCHA_URL is not set: the local stack was not started (tests that need it live in test/local-stack)");
  const res = await fetch(`${base}/requests/${encodeURIComponent(token)}`);
  return res.status === 200 ? ((await res.json()) as ReceivedRequest) : undefined;
}
