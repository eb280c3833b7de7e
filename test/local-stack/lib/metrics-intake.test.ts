import { randomUUID } from "node:crypto";
import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import { handler as login } from "../../../functions/auth/login";
import { handler as preflight } from "../../../functions/intake/preflight";
import { handler as receive } from "../../../functions/intake/receive-submission";
import { handler as notFound } from "../../../functions/not-found";
import { handler as listSites } from "../../../functions/sites/list-sites";
import { LOGIN_THROTTLE } from "../../../lib/accounts";
import { METRICS_NAMESPACE } from "../../../lib/metrics/catalog";
import { type Account, api, signupOwner, uniqueEmail } from "../../support/api";
import { agencyOwner, createKey } from "../../support/api-keys";
import { captureStdout, httpEvent, invokeAndRead, metricNames, metricValue, stopCapture, type Written } from "../../support/emf";
import { captchaToken } from "../../support/fake-captcha";
import { adsLead } from "../../support/intake";
import {
  awayFromWindowEdge,
  BROWSER,
  formEncode,
  freshIp,
  type Hook,
  intakeEvent,
  newHook,
  newSite,
} from "../../support/spam-helpers";

/**
 * The business metrics (docs/metrics.md) and the "request done" line, read from what a real
 * invocation writes: the handlers run in this process against the test stack's DynamoDB Local
 * and the fake captcha provider, with real API Gateway v2 events.
 */
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<{ statusCode: number; body?: string }>;
const intake = receive as unknown as Handler;

let owner: Account;
let generic: Hook;
let ads: Hook;
let captchaHook: Hook;
beforeAll(() => captureStdout());
afterAll(() => stopCapture());
beforeAll(async () => {
  owner = await signupOwner("metrics");
  const siteId = await newSite(owner);
  [generic, ads] = await Promise.all([newHook(owner, siteId, "generic"), newHook(owner, siteId, "partner_ads")]);
  captchaHook = await newHook(
    owner,
    await newSite(owner, { captcha: { provider: "score", siteKey: "site", secretKey: "sk-test-metrics" } }),
  );
});

const unique = () => ({ email: `metrics-${randomUUID()}@example.com`, message: `Hello ${randomUUID()}` });
const post = (hook: Hook, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  invokeAndRead(
    intake,
    intakeEvent(hook, freshIp(), formEncode(fields), {
      ...BROWSER,
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    }),
  );

/** Nothing of the request in what it wrote: no body value, no secret, no address. */
function expectNothingOfTheRequest(written: Written, secrets: string[]) {
  for (const secret of secrets) expect(written.raw).not.toContain(secret);
  expect(written.raw).not.toMatch(/[^\s"@]+@[^\s"@]+\.[a-z]+/i);
}

describe("the request done line", () => {
  test("an intake request: its route, status, latency, cold start and DynamoDB calls, and nothing of the request", async () => {
    const fields = unique();
    const { result, written } = await post(generic, fields);
    expect(result.statusCode).toBe(200);
    expect(written.done).toEqual({
      // The invocation's first EMF document rides on the line (one line fewer to ingest).
      _aws: expect.objectContaining({ CloudWatchMetrics: expect.any(Array) }),
      source: "generic",
      SubmissionsReceived: 1,
      SubmissionsStored: 1,
      level: "info",
      message: "request done",
      requestId: expect.stringMatching(/^req-/),
      route: "POST /api/v1/incoming/{webhookId}",
      status: 200,
      latencyMs: expect.any(Number),
      coldStart: expect.any(Boolean),
      dynamoCalls: expect.any(Number),
    });
    // Round trips 1-3 of docs/performance.md: the webhook; the site, form, reference number,
    // evidence counters; the submission, the webhook's count and the duplicate marker.
    expect(written.done.dynamoCalls).toBeGreaterThanOrEqual(7);
    expectNothingOfTheRequest(written, [generic.secretKey, fields.email, fields.message]);
  });

  test("the DynamoDB calls are this request's own, and a warm invocation is no cold start", async () => {
    const first = await invokeAndRead(notFound as unknown as Handler, httpEvent("GET /nowhere", "/nowhere"));
    expect(first.result.statusCode).toBe(404);
    expect(first.written.done).toMatchObject({ route: "$default", status: 404, dynamoCalls: 0, coldStart: false });
    const options = await invokeAndRead(preflight as unknown as Handler, httpEvent("OPTIONS /api/v1/incoming/{webhookId}", "/x"));
    expect(options.written.done).toMatchObject({ route: "OPTIONS /api/v1/incoming/{webhookId}", status: 204, dynamoCalls: 0 });
    // Two concurrent requests each count only their own calls.
    const [a, b] = await Promise.all([
      post(generic, unique()),
      invokeAndRead(notFound as unknown as Handler, httpEvent("GET /x", "/x")),
    ]);
    expect(a.written.done.dynamoCalls).toBeGreaterThanOrEqual(7);
    expect(b.written.done.dynamoCalls).toBe(0);
  });

  test("an authenticated route: the session, its member and organization (one batch get), and the query", async () => {
    const { result, written } = await invokeAndRead(
      listSites as unknown as Handler,
      httpEvent("GET /api/v1/sites", "/api/v1/sites", { headers: { authorization: `Bearer ${owner.token}` } }),
    );
    expect(result.statusCode).toBe(200);
    expect(written.done).toMatchObject({ route: "GET /api/v1/sites", status: 200, dynamoCalls: 3 });
    expectNothingOfTheRequest(written, [owner.token]);
  });
});

describe("intake metrics", () => {
  test("a stored submission: received and stored, by source, in the Inlet namespace", async () => {
    const { written } = await post(generic, unique());
    expect(metricValue(written.emf, "SubmissionsReceived", { source: "generic" })).toEqual([1]);
    expect(metricValue(written.emf, "SubmissionsStored", { source: "generic" })).toEqual([1]);
    expect(metricNames(written.emf)).toEqual(["SubmissionsReceived", "SubmissionsStored"]);
    for (const document of written.emf) {
      expect(document._aws.CloudWatchMetrics[0]?.Namespace).toBe(METRICS_NAMESPACE);
      expect(document._aws.Timestamp).toBeGreaterThan(Date.now() - 60_000);
      // Bounded dimensions only: never an id.
      expect(JSON.stringify(document._aws)).not.toMatch(/org_|site_|wh_|form_/);
    }
  });

  test("rejected: by source and the status (401 wrong key, 404 unknown webhook as source unknown, 415)", async () => {
    const wrongKey = await invokeAndRead(intake, {
      ...intakeEvent(generic, freshIp(), formEncode(unique())),
      queryStringParameters: { key: "not-the-key" },
    });
    expect(wrongKey.result.statusCode).toBe(401);
    expect(metricValue(wrongKey.written.emf, "SubmissionsRejected", { source: "generic", reason: "401" })).toEqual([1]);
    expect(metricValue(wrongKey.written.emf, "SubmissionsReceived", { source: "generic" })).toEqual([1]);
    expect(metricValue(wrongKey.written.emf, "SubmissionsStored", { source: "generic" })).toBeUndefined();

    const unknown = await invokeAndRead(
      intake,
      intakeEvent({ ...generic, id: "wh_doesnotexist" }, freshIp(), formEncode(unique())),
    );
    expect(unknown.result.statusCode).toBe(404);
    expect(metricValue(unknown.written.emf, "SubmissionsRejected", { source: "unknown", reason: "404" })).toEqual([1]);

    const media = await invokeAndRead(
      intake,
      intakeEvent(generic, freshIp(), "<xml/>", { ...BROWSER, "content-type": "application/xml" }),
    );
    expect(media.result.statusCode).toBe(415);
    expect(metricValue(media.written.emf, "SubmissionsRejected", { source: "generic", reason: "415" })).toEqual([1]);
  });

  test("spam flagged by the honeypot", async () => {
    const { written } = await post(generic, { ...unique(), _hp: "I am a bot" });
    expect(metricValue(written.emf, "SpamFlagged", { by: "honeypot" })).toEqual([1]);
    expect(metricValue(written.emf, "SubmissionsStored", { source: "generic" })).toEqual([1]);
    // Two dimension sets: one document on the request line, the other a line of its own.
    expect(written.emf).toHaveLength(2);
    expect(written.raw.trim().split("\n")).toHaveLength(2);
  });

  test("spam flagged by its score (no honeypot, no rate)", async () => {
    // No referer (+30), no user agent (+30), more than MAX_URLS links (+20): 80 > 70.
    const { written } = await invokeAndRead(
      intake,
      intakeEvent(
        generic,
        freshIp(),
        formEncode({ ...unique(), message: "https://a.example https://b.example https://c.example" }),
        { "content-type": "application/x-www-form-urlencoded" },
      ),
    );
    expect(metricValue(written.emf, "SpamFlagged", { by: "score" })).toEqual([1]);
    expect(metricValue(written.emf, "SpamFlagged", { by: "honeypot" })).toBeUndefined();
  });

  test("spam flagged by the per-IP rate: the 6th submission in a minute from one address", async () => {
    await awayFromWindowEdge(60, 15);
    const ip = freshIp();
    // No referer (+30), no user agent (+30): 60, not spam, until the rate adds its 20.
    const send = () =>
      invokeAndRead(
        intake,
        intakeEvent(generic, ip, formEncode(unique()), { "content-type": "application/x-www-form-urlencoded" }),
      );
    for (let i = 1; i <= 5; i++) expect(metricValue((await send()).written.emf, "SpamFlagged", { by: "rate" })).toBeUndefined();
    const sixth = await send();
    expect(metricValue(sixth.written.emf, "SpamFlagged", { by: "rate" })).toEqual([1]);
  });

  test("an idempotent repeat is counted, and not stored again", async () => {
    const fields = unique();
    const key = `metrics-${randomUUID()}`;
    const first = await post(generic, fields, { "idempotency-key": key });
    expect(metricValue(first.written.emf, "IdempotentRepeats")).toBeUndefined();
    const again = await post(generic, fields, { "idempotency-key": key });
    expect(again.result.statusCode).toBe(200);
    expect(metricValue(again.written.emf, "IdempotentRepeats", {})).toEqual([1]);
    expect(metricValue(again.written.emf, "SubmissionsStored", { source: "generic" })).toBeUndefined();
  });

  test("a duplicate ads lead is counted under its source", async () => {
    const lead = adsLead();
    const send = () =>
      invokeAndRead(intake, {
        ...intakeEvent(ads, freshIp(), JSON.stringify({ ...lead, google_key: ads.secretKey }), {
          "content-type": "application/json",
        }),
        queryStringParameters: {},
        rawQueryString: "",
      });
    const first = await send();
    expect(first.result.statusCode).toBe(200);
    expect(metricValue(first.written.emf, "SubmissionsStored", { source: "partner_ads" })).toEqual([1]);
    const again = await send();
    expect(metricValue(again.written.emf, "DuplicateAdsLeads", {})).toEqual([1]);
    expect(metricValue(again.written.emf, "SubmissionsReceived", { source: "partner_ads" })).toEqual([1]);
  });

  test("captcha verifications by outcome, with the provider's latency", async () => {
    const passed = await post(captchaHook, { ...unique(), "g-recaptcha-response": captchaToken("pass") });
    expect(passed.result.statusCode).toBe(200);
    expect(metricValue(passed.written.emf, "CaptchaVerifications", { outcome: "passed" })).toEqual([1]);
    const latency = metricValue(passed.written.emf, "CaptchaLatency", { outcome: "passed" });
    expect(latency).toHaveLength(1);
    expect(latency?.[0]).toBeGreaterThanOrEqual(0);

    const failed = await post(captchaHook, { ...unique(), "g-recaptcha-response": captchaToken("fail") });
    expect(failed.result.statusCode).toBe(403);
    expect(metricValue(failed.written.emf, "CaptchaVerifications", { outcome: "failed" })).toEqual([1]);
    expect(metricValue(failed.written.emf, "SubmissionsRejected", { source: "generic", reason: "403" })).toEqual([1]);

    const unavailable = await post(captchaHook, { ...unique(), "g-recaptcha-response": captchaToken("http500") });
    expect(unavailable.result.statusCode).toBe(503);
    expect(metricValue(unavailable.written.emf, "CaptchaVerifications", { outcome: "unavailable" })).toEqual([1]);
    // A 5xx is no rejection of the submission.
    expect(metricValue(unavailable.written.emf, "SubmissionsRejected", { source: "generic", reason: "503" })).toBeUndefined();
  });
});

describe("authentication metrics", () => {
  test("login failures, then throttles; the line carries neither the address nor the password", async () => {
    const email = uniqueEmail("metrics-login");
    const password = `wrong-${randomUUID()}`;
    const attempt = () =>
      invokeAndRead(
        login as unknown as Handler,
        httpEvent("POST /api/v1/auth/login", "/api/v1/auth/login", { body: { email, password }, sourceIp: freshIp() }),
      );
    const first = await attempt();
    expect(first.result.statusCode).toBe(401);
    expect(metricValue(first.written.emf, "LoginRefusals", { outcome: "failed" })).toEqual([1]);
    expectNothingOfTheRequest(first.written, [password]);
    for (let i = 1; i < LOGIN_THROTTLE.perEmail; i++) await attempt();
    const throttled = await attempt();
    expect(throttled.result.statusCode).toBe(429);
    expect(metricValue(throttled.written.emf, "LoginRefusals", { outcome: "throttled" })).toEqual([1]);
    expect(metricValue(throttled.written.emf, "LoginRefusals", { outcome: "failed" })).toBeUndefined();
  });

  test("an API key over its rate limit", async () => {
    const agency = await agencyOwner("metrics-key");
    const key = await createKey(agency, { name: "metrics" });
    const lowered = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: agency.token, body: { rateLimitPerMin: 1 } });
    expect(lowered.status).toBe(200);
    const secret = key.secretKey;
    const call = () =>
      invokeAndRead(
        listSites as unknown as Handler,
        httpEvent("GET /api/v1/sites", "/api/v1/sites", { headers: { authorization: `Bearer ${secret}` } }),
      );
    const ok = await call();
    expect(ok.result.statusCode).toBe(200);
    let limited = await call();
    // The window may have turned between the two calls: then the next call is the second of its window.
    if (limited.result.statusCode === 200) limited = await call();
    expect(limited.result.statusCode).toBe(429);
    expect(metricValue(limited.written.emf, "ApiKeyRateLimited", {})).toEqual([1]);
    expect(limited.written.done).toMatchObject({ route: "GET /api/v1/sites", status: 429 });
    expectNothingOfTheRequest(limited.written, [secret]);
  });
});
