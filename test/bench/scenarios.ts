import { randomBytes } from "node:crypto";
import { loadConfig } from "../../lib/config";
import { forgetIntakeConfigs } from "../../lib/intake/intake-config";
import { forgetReferenceBlocks, holdReferenceNumber } from "../../lib/intake/reference-numbers";
import { type Account, createSite, signupOwner } from "../support/api";
import { apiKeyWith } from "../support/fixtures";
import { adsLead, newWebhook, storedSubmission, type TestWebhook } from "../support/intake";
import type { Recorder, RecordingSummary } from "../support/recording-client";
import { type HttpHandler, type HttpResult, httpEvent, invoke } from "./events";

/** The bars for DynamoDB work per request (docs/performance.md, section 2). */
export const BARS = {
  /**
   * A warm instance (configuration kept, lib/intake/intake-config.ts) reserving one reference
   * number for this request, as at low traffic (lib/intake/reference-numbers.ts): the evidence
   * and the reservation, then the write. 5 write units: the counts are the stream's bookkeeper's.
   */
  cleanIntake: { sequentialRoundTrips: 2, wcu: 5 },
  /** The same request on an instance that has not kept the configuration: today's reads. */
  configMiss: { sequentialRoundTrips: 3 },
  apiKeyRead: { sequentialRoundTrips: 2 },
  /** Held since the count went beside the lead's transaction, so it cannot creep back (docs/performance.md). */
  adsLead: { sequentialRoundTrips: 3 },
  /** A repeated lead_id is answered from its marker: no number, no write. */
  duplicateLead: { wcu: 0 },
  /** The queue consumer's own writes per clean submission without email, alone or in a full batch. */
  consumer: { wcuPerSubmission: 2 },
  /**
   * Log bytes a clean submission costs at the default level: the intake's and the consumer's own
   * lines (request line and metrics), and Lambda's own where its system log level sends them
   * (docs/performance.md, section 14).
   */
  logBytesPerSubmission: 700,
} as const;

/**
 * How long the scenarios' instance keeps a webhook's configuration: longer than the default, so
 * that on a loaded machine the scenarios that claim a warm instance still find it kept (each
 * checks that it did, see `expectState`).
 */
export const SCENARIO_CACHE_SECONDS = "60";

/**
 * Sets the intake's configuration cache for the scenarios: call it before anything in this
 * process reads the configuration, which happens once per process (runScenarios checks).
 */
export function holdConfigurationForScenarios(): void {
  process.env.INTAKE_CACHE_SECONDS = SCENARIO_CACHE_SECONDS;
}

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

export function intakeEvent(
  webhook: TestWebhook,
  body: unknown,
  options: { key?: boolean; sourceIp?: string; headers?: Record<string, string> } = {},
) {
  return httpEvent({
    routeKey: "POST /api/v1/incoming/{webhookId}",
    path: `/api/v1/incoming/${webhook.id}`,
    pathParameters: { webhookId: webhook.id },
    ...(options.key === false ? {} : { query: { key: webhook.secretKey } }),
    headers: { ...BROWSER, ...options.headers },
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
  id:
    | "first-intake"
    | "clean-intake"
    | "clean-intake-held"
    | "config-miss"
    | "spam-intake"
    | "ads-lead"
    | "duplicate-lead"
    | "idempotent-repeat"
    | "api-key-read"
    | "session-read";
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
 * The intake instance a scenario claims: whether it had kept the webhook's configuration (no
 * webhook read) and whether the request reserved reference numbers (an `ADD` on the site's
 * sequence). Checked on the recorded calls, so a figure is never reported for another state.
 */
interface InstanceState {
  configKept: boolean;
  reserves: boolean;
}

function expectState(name: string, summary: RecordingSummary, state: InstanceState): void {
  const readsWebhook = summary.calls.some((c) => c.command === "GetItem" && c.keys.some((k) => k.startsWith("WEBHOOK#")));
  const reserves = summary.calls.some((c) => c.command === "UpdateItem" && c.keys.some((k) => k.endsWith("| SEQUENCE")));
  if (readsWebhook === state.configKept || reserves !== state.reserves) {
    throw new Error(
      `${name}: expected the configuration ${state.configKept ? "kept" : "read"} and ${state.reserves ? "a" : "no"} reservation, ` +
        `the request ${readsWebhook ? "read the webhook" : "kept it"} and ${reserves ? "reserved" : "did not reserve"} numbers`,
    );
  }
}

/**
 * Runs the scenarios of docs/performance.md, section 2 in this process, each request through its
 * handler module with an API Gateway v2 event, recording its DynamoDB calls. The handler modules
 * are one warm function instance: its kept configurations and reference blocks are forgotten or
 * held before each intake scenario so that it measures the state it names (`expectState`), from
 * a webhook's first submission (a new instance: nothing kept, its form created) on.
 */
export async function runScenarios(recorder: Recorder, fixture: Fixture, handlers?: Handlers): Promise<ScenarioResult[]> {
  if (String(loadConfig().INTAKE_CACHE_SECONDS) !== SCENARIO_CACHE_SECONDS) {
    throw new Error("call holdConfigurationForScenarios() before anything in this process reads the configuration");
  }
  const h = handlers ?? (await loadHandlers());
  const results: ScenarioResult[] = [];
  const run = async (
    id: ScenarioResult["id"],
    name: string,
    status: number,
    call: () => Promise<HttpResult>,
    options: { requestBytes?: number; state?: InstanceState } = {},
  ): Promise<HttpResult> => {
    const { result, summary } = await recorder.run(call);
    expectStatus(result, status, name);
    if (options.state) expectState(name, summary, options.state);
    const bytes = writtenSubmissionBytes(summary);
    // Read back (unrecorded): every 200 of the intake must be a stored submission.
    const submissionId = result.json?.submissionId as string | undefined;
    const stored = submissionId ? await storedSubmission(submissionId) : undefined;
    if (submissionId && !stored) throw new Error(`${name}: answered ${submissionId} but nothing is stored`);
    results.push({
      id,
      name,
      status: result.statusCode,
      ...(options.requestBytes !== undefined ? { requestBytes: options.requestBytes } : {}),
      ...(bytes !== undefined ? { storedBytes: bytes } : {}),
      ...(stored ? { isSpam: stored.isSpam } : {}),
      summary,
    });
    return result;
  };
  type PostOptions = { key?: boolean; headers?: Record<string, string> };
  type IntakeRequest = [TestWebhook, unknown, PostOptions?];
  const post = (webhook: TestWebhook, body: unknown, options: PostOptions = {}) =>
    invoke(h.intake, intakeEvent(webhook, body, options));
  /** One measured intake request: 200, in the instance state it names. */
  const intake = (
    id: ScenarioResult["id"],
    name: string,
    [webhook, body, options]: IntakeRequest,
    state: InstanceState,
    measureBytes = true,
  ) =>
    run(id, name, 200, () => post(webhook, body, options), {
      ...(measureBytes ? { requestBytes: Buffer.byteLength(JSON.stringify(body)) } : {}),
      state,
    });
  const warm = (reserves: boolean): InstanceState => ({ configKept: true, reserves });
  const cold: InstanceState = { configKept: false, reserves: true };
  const sameResult = (what: string, a: HttpResult, b: HttpResult) => {
    if (a.json?.submissionId !== b.json?.submissionId) throw new Error(`${what} was stored again: ${b.body} vs ${a.body}`);
  };

  const generic = (body: unknown = cleanSubmission()): IntakeRequest => [fixture.generic, body];
  const newInstance = () => {
    forgetIntakeConfigs();
    forgetReferenceBlocks();
  };
  const sequence: [ScenarioResult["id"], string, IntakeRequest, InstanceState, () => unknown][] = [
    // A new instance: nothing kept; the webhook's first submission creates its form (its bytes not counted).
    ["first-intake", "intake: a webhook's first submission (creates its form)", generic(), cold, newInstance],
    // At low traffic every block is one number: the instance holds none when a request arrives.
    [
      "clean-intake",
      "intake: accepted clean submission (warm, reserves its number)",
      generic(),
      warm(true),
      forgetReferenceBlocks,
    ],
    // A busy instance holds numbers of its last block: the request takes one without a write.
    [
      "clean-intake-held",
      "intake: accepted clean submission (warm, a number held)",
      generic(),
      warm(false),
      () => holdReferenceNumber(fixture.siteId),
    ],
    ["config-miss", "intake: accepted clean submission (configuration not kept)", generic(), cold, newInstance],
    [
      "spam-intake",
      "intake: spam-flagged submission (honeypot; warm, reserves)",
      generic({ ...cleanSubmission(), _hp: "https://cheap-backlinks.example" }),
      warm(true),
      forgetReferenceBlocks,
    ],
  ];
  for (const [id, name, request, state, prepare] of sequence) {
    await prepare();
    await intake(id, name, request, state, id !== "first-intake");
  }

  // The ads webhook's first lead creates its form: not measured.
  await post(fixture.ads, { ...adsLead(), google_key: fixture.ads.secretKey }, { key: false });
  const lead: IntakeRequest = [fixture.ads, { ...adsLead(), google_key: fixture.ads.secretKey }, { key: false }];
  // A lead carries a repeat marker: it reserves its number only once the marker is read.
  forgetReferenceBlocks();
  const firstLead = await intake("ads-lead", "intake: advertising-platform lead (warm, reserves)", lead, warm(true));
  forgetReferenceBlocks();
  sameResult(
    "the duplicate lead",
    firstLead,
    await intake("duplicate-lead", "intake: duplicate lead (same lead_id)", lead, warm(false), false),
  );

  // An Idempotency-Key repeat of a browser form: answered from its marker; the IP still counts.
  const keyed: IntakeRequest = [
    fixture.generic,
    cleanSubmission(),
    { headers: { "idempotency-key": `bench-${randomBytes(6).toString("hex")}` } },
  ];
  const firstKeyed = await post(...keyed);
  forgetReferenceBlocks();
  sameResult(
    "the Idempotency-Key repeat",
    firstKeyed,
    await intake("idempotent-repeat", "intake: Idempotency-Key repeat", keyed, warm(false), false),
  );

  // The key's first request of a minute also records lastUsedAt: warm it up, measure the next.
  await invoke(h.listWebhooks, listWebhooksEvent(fixture.siteId, fixture.apiKey));
  await run("api-key-read", "API key: GET /api/v1/sites/{id}/webhooks", 200, () =>
    invoke(h.listWebhooks, listWebhooksEvent(fixture.siteId, fixture.apiKey)),
  );
  await run("session-read", "session: GET /api/v1/sites/{id}/webhooks", 200, () =>
    invoke(h.listWebhooks, listWebhooksEvent(fixture.siteId, fixture.owner.token)),
  );

  const flagged = (id: ScenarioResult["id"]) => results.find((r) => r.id === id)?.isSpam;
  for (const id of ["clean-intake", "clean-intake-held", "config-miss"] as const) {
    if (flagged(id) !== false) throw new Error(`${id}: the clean submission was not stored as clean`);
  }
  if (flagged("spam-intake") !== true) throw new Error("the honeypot submission was not stored as spam");
  return results;
}

/** Which bars a scenario carries, and whether it meets them. */
export function checkBars(result: ScenarioResult): { bar: string; ok: boolean }[] {
  const s = result.summary;
  const roundTrips = (limit: number) => ({ bar: `<= ${limit} sequential round trips`, ok: s.sequentialRoundTrips <= limit });
  const units = (limit: number) => ({ bar: `<= ${limit} WCU`, ok: s.wcu <= limit });
  switch (result.id) {
    case "clean-intake":
      return [roundTrips(BARS.cleanIntake.sequentialRoundTrips), units(BARS.cleanIntake.wcu)];
    case "config-miss":
      return [roundTrips(BARS.configMiss.sequentialRoundTrips)];
    case "ads-lead":
      return [roundTrips(BARS.adsLead.sequentialRoundTrips)];
    case "duplicate-lead":
      return [units(BARS.duplicateLead.wcu)];
    case "api-key-read":
      return [roundTrips(BARS.apiKeyRead.sequentialRoundTrips)];
    default:
      return [];
  }
}
