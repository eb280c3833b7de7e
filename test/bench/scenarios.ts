import { randomBytes } from "node:crypto";
import { type Account, createSite, signupOwner } from "../support/api";
import { apiKeyWith } from "../support/fixtures";
import { adsLead, newWebhook, storedSubmission, type TestWebhook } from "../support/intake";
import type { Recorder, RecordingSummary } from "../support/recording-client";
import { type HttpHandler, type HttpResult, httpEvent, invoke } from "./events";

/** The bars for DynamoDB work per request (docs/performance.md, section 2). */
export const BARS = {
  /**
   * 7 write units until the site's daily count (the overview's chart, docs/data-model.md "Daily
   * counts"): one more, written beside the submission in the same round trip. Counting on read
   * instead would scan submissions, a read that grows with the data; docs/performance.md,
   * section 2, has the cost.
   */
  cleanIntake: { sequentialRoundTrips: 3, wcu: 8 },
  apiKeyRead: { sequentialRoundTrips: 2 },
  /** Held since the count went beside the lead's transaction, so it cannot creep back (docs/performance.md). */
  adsLead: { sequentialRoundTrips: 3 },
  /** The queue consumer's own writes per clean submission without email, alone or in a full batch (issue 25). */
  consumer: { wcuPerSubmission: 2 },
  /**
   * Log bytes a clean submission costs at the default level: the intake's and the consumer's own
   * lines (request line and metrics), and Lambda's own where its system log level sends them
   * (issue 25; docs/performance.md).
   */
  logBytesPerSubmission: 700,
} as const;

/**
 * What the scenarios run against: one owner on the Agency plan (API keys), a site, a form
 * webhook and an advertising-platform webhook, an API key with sites.view. Created through the
 * HTTP API of a running local stack (INLET_URL), as the HTTP tests do.
 */
export interface Fixture {
  owner: Account;
  siteId: string;
  generic: TestWebhook;
  ads: TestWebhook;
  apiKey: string;
}

export async function prepareFixture(label = "bench"): Promise<Fixture> {
  const owner = await signupOwner(label);
  const siteId = await createSite(owner, `${label} site`);
  const [generic, ads, apiKey] = await Promise.all([
    newWebhook(owner, siteId, { name: "Contact form" }),
    newWebhook(owner, siteId, { name: "Google Ads lead form", source: "partner_ads" }),
    apiKeyWith(owner, ["sites.view"]),
  ]);
  return { owner, siteId, generic, ads, apiKey };
}

interface Handlers {
  intake: HttpHandler;
  listWebhooks: HttpHandler;
}

/** Loaded on first use: the handlers read the configuration (lib/config.ts) when they run. */
export async function loadHandlers(): Promise<Handlers> {
  // One after the other: jest's ESM loader fails concurrent imports sharing a dependency.
  const intake = await import("../../functions/intake/receive-submission");
  const list = await import("../../functions/webhooks/list-webhooks");
  return { intake: intake.handler as HttpHandler, listWebhooks: list.handler as HttpHandler };
}

/** Browser headers, so a clean submission scores clean (docs/spam.md). */
const BROWSER = {
  "content-type": "application/json",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  referer: "https://www.example.com/contact",
};

/** A contact-form submission of ~150 bytes, different every time (no duplicate signal). */
export function cleanSubmission(nonce = randomBytes(6).toString("hex")) {
  return {
    name: "Ada Lovelace",
    email: `ada.${nonce}@example.com`,
    message: `Hello, I would like a quote for a five-page website. Ref ${nonce}.`,
  };
}

/** A client address of the documentation range, new for each run (per-IP counters start at 1). */
export const clientIp = () => `198.51.100.${1 + ((randomBytes(1)[0] as number) % 254)}`;

export function intakeEvent(webhook: TestWebhook, body: unknown, options: { key?: boolean; sourceIp?: string } = {}) {
  return httpEvent({
    routeKey: "POST /api/v1/incoming/{webhookId}",
    path: `/api/v1/incoming/${webhook.id}`,
    pathParameters: { webhookId: webhook.id },
    ...(options.key === false ? {} : { query: { key: webhook.secretKey } }),
    headers: BROWSER,
    body: JSON.stringify(body),
    sourceIp: options.sourceIp ?? clientIp(),
  });
}

export function listWebhooksEvent(siteId: string, token: string) {
  return httpEvent({
    routeKey: "GET /api/v1/sites/{id}/webhooks",
    path: `/api/v1/sites/${siteId}/webhooks`,
    pathParameters: { id: siteId },
    headers: { authorization: `Bearer ${token}`, "user-agent": "inlet-bench" },
  });
}

export interface ScenarioResult {
  name: string;
  /** The key the bars and the cost model refer to. */
  id: "first-intake" | "clean-intake" | "spam-intake" | "ads-lead" | "duplicate-lead" | "api-key-read" | "session-read";
  status: number;
  /** What the request asked for: the body's bytes. */
  requestBytes?: number;
  /** The stored submission's size by DynamoDB's rules, when one was written. */
  storedBytes?: number;
  isSpam?: boolean;
  summary: RecordingSummary;
}

function expectStatus(res: HttpResult, status: number, what: string): void {
  if (res.statusCode !== status) throw new Error(`${what}: expected ${status}, got ${res.statusCode} ${res.body.slice(0, 400)}`);
}

/** The size of the submission an intake request wrote (a PutItem, or a Put of its transaction). */
function writtenSubmissionBytes(summary: RecordingSummary): number | undefined {
  for (const call of summary.calls) {
    const item = call.items.find((i) => i.key.startsWith("SUB#"));
    if (item && (call.command === "PutItem" || call.command === "TransactWriteItems")) return item.after;
  }
  return undefined;
}

/**
 * Runs the six scenarios of docs/performance.md, section 2 (and a webhook's first submission, which creates its
 * form) in this process, each request through its handler module with an API Gateway v2 event,
 * recording its DynamoDB calls. Intake scenarios run after a warm-up where one is needed, so
 * they measure the steady state: a webhook whose form exists.
 */
export async function runScenarios(recorder: Recorder, fixture: Fixture, handlers?: Handlers): Promise<ScenarioResult[]> {
  const h = handlers ?? (await loadHandlers());
  const results: ScenarioResult[] = [];
  const run = async (
    id: ScenarioResult["id"],
    name: string,
    status: number,
    call: () => Promise<HttpResult>,
    requestBytes?: number,
  ): Promise<HttpResult> => {
    const { result, summary } = await recorder.run(call);
    expectStatus(result, status, name);
    const bytes = writtenSubmissionBytes(summary);
    // Read back (unrecorded): every 200 of the intake must be a stored submission.
    const submissionId = result.json?.submissionId as string | undefined;
    const stored = submissionId ? await storedSubmission(submissionId) : undefined;
    if (submissionId && !stored) throw new Error(`${name}: answered ${submissionId} but nothing is stored`);
    results.push({
      id,
      name,
      status: result.statusCode,
      ...(requestBytes !== undefined ? { requestBytes } : {}),
      ...(bytes !== undefined ? { storedBytes: bytes } : {}),
      ...(stored ? { isSpam: stored.isSpam } : {}),
      summary,
    });
    return result;
  };

  const first = cleanSubmission();
  await run("first-intake", "intake: a webhook's first submission (creates its form)", 200, () =>
    invoke(h.intake, intakeEvent(fixture.generic, first)),
  );

  const clean = cleanSubmission();
  await run(
    "clean-intake",
    "intake: accepted clean submission",
    200,
    () => invoke(h.intake, intakeEvent(fixture.generic, clean)),
    Buffer.byteLength(JSON.stringify(clean)),
  );

  const spam = { ...cleanSubmission(), _hp: "https://cheap-backlinks.example" };
  await run(
    "spam-intake",
    "intake: spam-flagged submission (honeypot)",
    200,
    () => invoke(h.intake, intakeEvent(fixture.generic, spam)),
    Buffer.byteLength(JSON.stringify(spam)),
  );

  // The ads webhook's first lead creates its form: not measured.
  await invoke(h.intake, intakeEvent(fixture.ads, { ...adsLead(), google_key: fixture.ads.secretKey }, { key: false }));
  const lead = { ...adsLead(), google_key: fixture.ads.secretKey };
  const first200 = await run(
    "ads-lead",
    "intake: advertising-platform lead",
    200,
    () => invoke(h.intake, intakeEvent(fixture.ads, lead, { key: false })),
    Buffer.byteLength(JSON.stringify(lead)),
  );
  const repeat = await run("duplicate-lead", "intake: duplicate lead (same lead_id)", 200, () =>
    invoke(h.intake, intakeEvent(fixture.ads, lead, { key: false })),
  );
  if (repeat.json?.submissionId !== first200.json?.submissionId) {
    throw new Error(`the duplicate lead was stored again: ${repeat.body} vs ${first200.body}`);
  }

  // The key's first request of a minute also records lastUsedAt: warm it up, measure the next.
  await invoke(h.listWebhooks, listWebhooksEvent(fixture.siteId, fixture.apiKey));
  await run("api-key-read", "API key: GET /api/v1/sites/{id}/webhooks", 200, () =>
    invoke(h.listWebhooks, listWebhooksEvent(fixture.siteId, fixture.apiKey)),
  );
  await run("session-read", "session: GET /api/v1/sites/{id}/webhooks", 200, () =>
    invoke(h.listWebhooks, listWebhooksEvent(fixture.siteId, fixture.owner.token)),
  );

  const flagged = (id: ScenarioResult["id"]) => results.find((r) => r.id === id)?.isSpam;
  if (flagged("clean-intake") !== false) throw new Error("the clean submission was not stored as clean");
  if (flagged("spam-intake") !== true) throw new Error("the honeypot submission was not stored as spam");
  return results;
}

/** Which bars a scenario carries, and whether it meets them. */
export function checkBars(result: ScenarioResult): { bar: string; ok: boolean }[] {
  const s = result.summary;
  if (result.id === "clean-intake") {
    return [
      {
        bar: `<= ${BARS.cleanIntake.sequentialRoundTrips} sequential round trips`,
        ok: s.sequentialRoundTrips <= BARS.cleanIntake.sequentialRoundTrips,
      },
      { bar: `<= ${BARS.cleanIntake.wcu} WCU`, ok: s.wcu <= BARS.cleanIntake.wcu },
    ];
  }
  if (result.id === "ads-lead") {
    return [
      {
        bar: `<= ${BARS.adsLead.sequentialRoundTrips} sequential round trips`,
        ok: s.sequentialRoundTrips <= BARS.adsLead.sequentialRoundTrips,
      },
    ];
  }
  if (result.id === "api-key-read") {
    return [
      {
        bar: `<= ${BARS.apiKeyRead.sequentialRoundTrips} sequential round trips`,
        ok: s.sequentialRoundTrips <= BARS.apiKeyRead.sequentialRoundTrips,
      },
    ];
  }
  return [];
}
