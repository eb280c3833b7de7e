import fc from "fast-check";
import { ROUTES, type RouteDef } from "../../../functions/routes";
import { type Account, api, platformAdminToken } from "../../support/api";
import { agencyOwner, createKey } from "../../support/api-keys";
import { accepted, intakeTarget, linkedForm, postIntake } from "../../support/intake";
import { checkAgainstDocument } from "../../support/openapi";

/**
 * Every route of functions/routes.ts, driven with random requests: whatever the
 * method, content type, body, path ids, query and credentials, no answer is a 5xx, and every
 * error is the JSON envelope. The routes come from the table, so a route added there is fuzzed
 * without anyone remembering to.
 *
 * A fixed seed by default keeps CI reproducible and inside the suite's time budget; more runs on
 * demand: `FUZZ_RUNS=200 FUZZ_SEED=$RANDOM npm test -- test/local-stack/http/routes-fuzz.test.ts`. A failure
 * prints the request that caused it (fast-check shrinks it first) and the seed to replay it.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 1414);

interface World {
  /** Ids of the caller's own resources and of another organization's, by path parameter. */
  own: Record<string, string>;
  foreign: Record<string, string>;
  /** Headers each credential sends, by name. */
  credentials: Record<string, Record<string, string>>;
}

/** Two organizations, each with a site, a webhook with a submission, its form and an outbound endpoint. */
async function organization(label: string): Promise<{ account: Account; ids: Record<string, string>; key: string }> {
  const account = await agencyOwner(label);
  const t = await intakeTarget(label, undefined, account);
  const { submissionId } = accepted(await postIntake(t.webhook, { json: { email: "lead@example.com", note: "hi" } }));
  const formId = (await linkedForm(t.webhook.id)).id as string;
  const endpoint = await api("POST", `/api/v1/forms/${formId}/outbound-webhooks`, {
    token: account.token,
    body: { url: "http://127.0.0.1:9/hook" },
  });
  const key = (await createKey(account)).secretKey;
  return {
    account,
    key,
    ids: {
      id: t.siteId,
      webhookId: t.webhook.id,
      formId,
      submissionId,
      endpointId: endpoint.body.data?.id ?? "ep_missing",
      deliveryId: "dlv_0000000000000000000000",
      userId: account.userId,
      orgId: account.orgId,
    },
  };
}

let world: World;
beforeAll(async () => {
  const [mine, theirs] = [await organization("fuzz-a"), await organization("fuzz-b")];
  world = {
    own: mine.ids,
    foreign: theirs.ids,
    credentials: {
      none: {},
      garbage: { authorization: "Bearer not-a-token" },
      malformedScheme: { authorization: "Basic dXNlcjpwYXNz" },
      wrongChecksum: { authorization: `Bearer ${mine.key.slice(0, -1)}${mine.key.endsWith("A") ? "B" : "A"}` },
      session: { authorization: `Bearer ${mine.account.token}` },
      apiKey: { authorization: `Bearer ${mine.key}` },
      foreignSession: { authorization: `Bearer ${theirs.account.token}` },
      platformAdmin: { authorization: `Bearer ${await platformAdminToken()}` },
      // The dashboard's cookie, from the service's own origin and from another.
      cookieSameOrigin: {
        cookie: `__Host-inlet_session=${mine.account.token}`,
        origin: new URL(process.env.BASE_URL as string).origin,
      },
      cookieCrossOrigin: { cookie: `__Host-inlet_session=${mine.account.token}`, origin: "https://evil.example" },
      cookieJunk: { cookie: "__Host-inlet_session=inlet_ss_x; other=1" },
    },
  };
}, 60_000);

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"] as const;

/** A path parameter: the caller's own id, another organization's, or junk. */
const pathId = (name: string) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant("own").map(() => world.own[name] ?? "own") },
    { weight: 2, arbitrary: fc.constant("foreign").map(() => world.foreign[name] ?? "foreign") },
    fc.constant(""),
    fc.constant("x".repeat(3000)),
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 20 }),
    fc.constantFrom("..", ".", "%00", "%2F", "null", "undefined", "__proto__", "constructor", "-1", "0", "wh_", "sub_🎉"),
    fc.stringMatching(/^[0-9A-Za-z_-]{1,64}$/),
  );

const QUERY_KEYS = [
  "cursor",
  "limit",
  "status",
  "spam",
  "archived",
  "permanent",
  "q",
  "from",
  "to",
  "format",
  "key",
  "_redirect",
  "x",
];
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer({ min: -5, max: 1000 }).map(String),
  fc.constantFrom("true", "false", "all", "csv", "json", "", "2026-01-01", "2026-13-45"),
  fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v)).toString("base64url")),
  fc.constant("y".repeat(3000)),
);
const query = fc
  .dictionary(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 8 })), queryValue, { maxKeys: 4 })
  .map((q) => new URLSearchParams(q).toString());

const entries = fc.array(fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 60 })), { maxLength: 8 });

/** A body and the content type it is sent with (sometimes a lying or missing one). */
const body = fc.oneof(
  fc.constant({ bytes: undefined as Buffer | undefined, type: undefined as string | undefined }),
  fc
    .jsonValue({ maxDepth: 6 })
    .map((v) => ({ bytes: Buffer.from(JSON.stringify(v)), type: "application/json" as string | undefined })),
  fc
    .dictionary(
      fc.constantFrom("name", "email", "role", "plan", "permissions", "url", "fields", "token", "password", "isSpam", "restore"),
      fc.jsonValue({ maxDepth: 3 }),
      { maxKeys: 5 },
    )
    .map((v) => ({ bytes: Buffer.from(JSON.stringify(v)), type: "application/json" as string | undefined })),
  entries.map((pairs) => ({
    bytes: Buffer.from(new URLSearchParams(pairs).toString()),
    type: "application/x-www-form-urlencoded" as string | undefined,
  })),
  entries.map((pairs) => {
    const boundary = "fuzzBoundary7MA4YWxkTrZu0gW";
    const parts = pairs.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
    return { bytes: Buffer.from(`${parts.join("")}--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` };
  }),
  fc
    .tuple(
      fc.uint8Array({ maxLength: 300 }),
      fc.constantFrom("application/octet-stream", "text/plain", "application/json", "image/png", "x/y; charset=klingon"),
    )
    .map(([b, type]) => ({ bytes: Buffer.from(b), type: type as string | undefined })),
  fc.string({ maxLength: 200 }).map((s) => ({ bytes: Buffer.from(s), type: "application/json; charset=utf-16" })),
);

interface FuzzRequest {
  method: string;
  path: string;
  /** Which credential (world.credentials), by name: a counterexample names it, never prints a secret. */
  credential: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const requestFor = (def: RouteDef): fc.Arbitrary<FuzzRequest> => {
  const [routeMethod, template] = def.route === "$default" ? ["GET", "/api/v1/{x}"] : (def.route.split(" ") as [string, string]);
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  return fc
    .record({
      method: fc.oneof({ weight: 4, arbitrary: fc.constant(routeMethod) }, fc.constantFrom(...METHODS)),
      params: fc.tuple(...names.map(pathId)),
      query,
      body,
      credential: fc.constantFrom(...Object.keys(world.credentials)),
      idempotencyKey: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    })
    .map(({ method, params, query, body, credential, idempotencyKey }) => {
      let path = template;
      names.forEach((name, i) => {
        path = path.replace(`{${name}}`, encodeURIComponent(params[i] ?? ""));
      });
      const headers: Record<string, string> = {};
      if (body.type) headers["content-type"] = body.type;
      if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey.replace(/[^\x20-\x7e]/g, "");
      const sendsBody = body.bytes !== undefined && method !== "GET" && method !== "HEAD";
      return { method, path: query ? `${path}?${query}` : path, credential, headers, ...(sendsBody ? { body: body.bytes } : {}) };
    });
};

const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.path.slice(0, 300)}\n  credential ${r.credential}, headers ${JSON.stringify(r.headers).slice(0, 300)}\n  body ${
    r.body ? JSON.stringify(r.body.toString("utf8").slice(0, 300)) : "(none)"
  }`;

/** The answer's problems: a 5xx, or an error that is not the JSON envelope. */
function problems(status: number, contentType: string, text: string, method: string): string[] {
  if (status >= 500) return [`answered ${status}: ${text.slice(0, 300)}`];
  if (status < 400 || method === "HEAD") return [];
  if (!contentType.includes("application/json")) return [`error ${status} is not JSON (${contentType})`];
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [`error ${status} body is not JSON: ${text.slice(0, 200)}`];
  }
  const ok = parsed?.success === false && typeof parsed.error?.code === "string" && typeof parsed.error?.message === "string";
  return ok ? [] : [`error ${status} is not the envelope: ${text.slice(0, 200)}`];
}

describe("every route, random requests: never a 5xx, every error the JSON envelope, every answer as docs/openapi.json says", () => {
  test.each(ROUTES.map((def) => [def.route, def] as const))("%s", async (_route, def) => {
    await fc.assert(
      fc.asyncProperty(requestFor(def as RouteDef), async (request) => {
        const res = await fetch(`${process.env.INLET_URL}${request.path}`, {
          method: request.method,
          headers: { ...request.headers, ...world.credentials[request.credential] },
          ...(request.body ? { body: request.body } : {}),
          redirect: "manual",
        });
        const text = await res.text();
        const found = problems(res.status, res.headers.get("content-type") ?? "", text, request.method);
        if (found.length > 0) throw new Error(`${found.join("; ")}\n  request: ${describeRequest(request)}`);
        // And what the OpenAPI document says of the operation: a documented status, its schema, a listed code.
        // HEAD is no operation of the document (API Gateway answers it as GET without a body).
        if (request.method !== "HEAD") {
          try {
            checkAgainstDocument({
              method: request.method,
              path: request.path,
              status: res.status,
              contentType: res.headers.get("content-type"),
              text,
            });
          } catch (error) {
            throw new Error(`${(error as Error).message}\n  request: ${describeRequest(request)}`);
          }
        }
      }),
      { numRuns: RUNS, seed: SEED + ROUTES.indexOf(def), endOnFailure: false, verbose: 1 },
    );
  });
});
