import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Metafile } from "esbuild";
import { ROUTES } from "../../../functions/routes";
import {
  type BuiltBundle,
  buildBundles,
  functionEntries,
  functionEntryPoints,
  includesInput,
  MAX_BUNDLE_BYTES,
  type SdkClient,
} from "../../bench/bundles";
import { BARS, prepareFixture, runScenarios, type ScenarioResult } from "../../bench/scenarios";
import {
  loadListHandler,
  prepareSearchFixture,
  runSearchScenarios,
  SEARCH_BARS,
  SEARCH_SIZES,
  type SearchResult,
} from "../../bench/search-scenarios";
import { describeCalls, Recorder, type RecordingSummary } from "../../support/recording-client";

/**
 * The performance bars of docs/performance.md, held without timing anything: bundle sizes (the
 * same esbuild build `cdk synth` runs, infra/bundling.ts) and the DynamoDB round trips and
 * write units of the request scenarios (the recording client against the test stack).
 */

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe("bundle sizes (the build cdk synth runs)", () => {
  let sizes: Map<string, number>;
  let built: Map<string, BuiltBundle>;
  let metafile: Metafile;
  beforeAll(async () => {
    ({ bundles: built, metafile } = await buildBundles(functionEntryPoints(), join(tmpdir(), "inlet-perf-bundles"), false));
    sizes = new Map([...built.values()].map((b) => [b.name, b.bytes]));
  }, 300_000);
  const includes = (handler: string, prefix: string) => {
    const bundle = built.get(handler);
    if (!bundle) throw new Error(`no bundle ${handler}`);
    return includesInput(metafile, bundle.file, prefix);
  };

  test("every function is bundled", () => {
    expect([...sizes.keys()].sort()).toEqual(
      functionEntries()
        .map((e) => e.handler)
        .sort(),
    );
  });

  test(`every function's bundle is at most ${kb(MAX_BUNDLE_BYTES)}`, () => {
    const over = [...sizes.entries()]
      .filter(([, bytes]) => bytes > MAX_BUNDLE_BYTES)
      .map(([name, bytes]) => `${name}: ${kb(bytes)}`);
    expect(over).toEqual([]);
  });

  /** The SDK client packages, by the client a route entry grants. */
  const SDK_PACKAGES: Record<SdkClient, string[]> = {
    dynamodb: ["node_modules/@aws-sdk/client-dynamodb/"],
    sqs: ["node_modules/@aws-sdk/client-sqs/"],
    // Exports are signed with the signer the DynamoDB client brings (lib/aws/s3.ts).
    s3: [],
    ses: ["node_modules/@aws-sdk/client-sesv2/"],
  };
  const ALL_CLIENTS = Object.keys(SDK_PACKAGES) as SdkClient[];

  test("a function bundles only the AWS SDK clients its route entry grants (and never the S3 client)", () => {
    const extra = functionEntries().flatMap((entry) =>
      ALL_CLIENTS.filter((client) => !entry.clients.includes(client))
        .flatMap((client) => SDK_PACKAGES[client])
        .concat(["node_modules/@aws-sdk/client-s3/", "node_modules/@aws-sdk/s3-request-presigner/"])
        .filter((pkg) => includes(entry.handler, pkg))
        .map((pkg) => `${entry.handler}: ${pkg}`),
    );
    expect(extra).toEqual([]);
  });

  test("public routes do not load the authentication code (lib/auth/principal.ts, API keys, sessions)", () => {
    const publicHandlers = [...new Set(ROUTES.filter((r) => r.auth === "public").map((r) => r.handler as string))];
    expect(publicHandlers).toEqual(expect.arrayContaining(["intake/receive-submission", "intake/preflight", "not-found"]));
    const loading = publicHandlers.filter((h) =>
      ["authenticate", "sessions", "api-key-auth"].some((m) => includes(h, `lib/auth/${m}.ts`)),
    );
    expect(loading).toEqual([]);
  });

  test("no function bundles the OpenAPI generator or zod's JSON-schema conversion (the document is served as committed)", () => {
    const loading = functionEntries().flatMap((entry) =>
      ["infra/openapi/", "node_modules/zod/v4/core/to-json-schema", "node_modules/zod/v4/core/json-schema-"]
        .filter((prefix) => includes(entry.handler, prefix))
        .map((prefix) => `${entry.handler}: ${prefix}`),
    );
    expect(loading).toEqual([]);
  });

  test("the OpenAPI document's function is the document and nothing else: no SDK, no middy", () => {
    expect(includes("openapi/get-openapi", "node_modules/")).toBe(false);
    expect(includes("openapi/get-openapi", "docs/openapi.json")).toBe(true);
  });

  test("the CORS preflight and the 404 route answer constants: a few KB, no SDK, no middy", () => {
    for (const handler of ["intake/preflight", "not-found"]) {
      expect([handler, includes(handler, "node_modules/")]).toEqual([handler, false]);
      expect(sizes.get(handler)).toBeLessThan(8 * 1024);
    }
  });
});

describe("DynamoDB work per request (recording client, units by DynamoDB's rules)", () => {
  let results: ScenarioResult[];
  const summary = (id: ScenarioResult["id"]): RecordingSummary => {
    const found = results.find((r) => r.id === id);
    if (!found) throw new Error(`no scenario ${id}`);
    return found.summary;
  };
  /** Fails with the calls listed, so a regression names its round trips. */
  const atMost = (id: ScenarioResult["id"], what: "sequentialRoundTrips" | "wcu", limit: number) => {
    const s = summary(id);
    if (s[what] > limit) throw new Error(`${id}: ${what} ${s[what]} > ${limit}\n${describeCalls(s)}`);
  };

  beforeAll(async () => {
    const fixture = await prepareFixture("perf");
    const recorder = new Recorder();
    try {
      results = await runScenarios(recorder, fixture);
    } finally {
      recorder.uninstall();
    }
  }, 120_000);

  test("every scenario answered as expected, and stored what it answered", () => {
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ["first-intake", 200],
      ["clean-intake", 200],
      ["spam-intake", 200],
      ["ads-lead", 200],
      ["duplicate-lead", 200],
      ["api-key-read", 200],
      ["session-read", 200],
    ]);
    // A clean submission of this size is under 1 KB as stored: one write unit for the item.
    expect(results.find((r) => r.id === "clean-intake")?.storedBytes).toBeLessThan(1024);
  });

  test(`a clean intake submission takes at most ${BARS.cleanIntake.sequentialRoundTrips} sequential round trips`, () => {
    atMost("clean-intake", "sequentialRoundTrips", BARS.cleanIntake.sequentialRoundTrips);
  });

  test(`a clean intake submission consumes at most ${BARS.cleanIntake.wcu} write units`, () => {
    atMost("clean-intake", "wcu", BARS.cleanIntake.wcu);
  });

  test(`an advertising-platform lead takes at most ${BARS.adsLead.sequentialRoundTrips} sequential round trips`, () => {
    atMost("ads-lead", "sequentialRoundTrips", BARS.adsLead.sequentialRoundTrips);
  });

  test(`an API-key read takes at most ${BARS.apiKeyRead.sequentialRoundTrips} sequential round trips, auth and rate limit included`, () => {
    atMost("api-key-read", "sequentialRoundTrips", BARS.apiKeyRead.sequentialRoundTrips);
  });
});

describe(`search: the same read units in a form of ${SEARCH_SIZES.small} and of ${SEARCH_SIZES.large} submissions`, () => {
  let results: SearchResult[];
  const of = (id: SearchResult["id"]) => {
    const found = results.find((r) => r.id === id);
    if (!found) throw new Error(`no scenario ${id}`);
    return found;
  };

  beforeAll(async () => {
    const handler = await loadListHandler();
    const fixture = await prepareSearchFixture();
    const recorder = new Recorder();
    try {
      results = await runSearchScenarios(recorder, fixture, handler);
    } finally {
      recorder.uninstall();
    }
  }, 600_000);

  test("each search found what the form holds: the 3 submissions with the address, the 1 with the reference", () => {
    expect(results.map((r) => [r.id, r.found])).toEqual([
      ["search-email-small", 3],
      ["search-reference-small", 1],
      ["search-email-large", 3],
      ["search-reference-large", 1],
    ]);
  });

  test.each(["email", "reference"] as const)(
    `by %s: at most ${SEARCH_BARS.rcu} read units and ${SEARCH_BARS.sequentialRoundTrips} round trips, the same at both sizes`,
    (what) => {
      const small = of(`search-${what}-small`).summary;
      const large = of(`search-${what}-large`).summary;
      for (const s of [small, large]) {
        if (s.rcu > SEARCH_BARS.rcu || s.sequentialRoundTrips > SEARCH_BARS.sequentialRoundTrips) {
          throw new Error(`search by ${what}: ${s.rcu} RCU, ${s.sequentialRoundTrips} round trips\n${describeCalls(s)}`);
        }
      }
      expect(large.rcu).toBe(small.rcu);
      expect(large.calls.map((c) => c.command)).toEqual(small.calls.map((c) => c.command));
    },
  );
});
