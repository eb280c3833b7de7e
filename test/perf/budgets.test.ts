import { tmpdir } from "node:os";
import { join } from "node:path";
import { Recorder, describeCalls, type RecordingSummary } from "../support/recording-client";
import { buildBundles, functionEntries, functionEntryPoints, MAX_BUNDLE_BYTES } from "../bench/bundles";
import { BARS, prepareFixture, runScenarios, type ScenarioResult } from "../bench/scenarios";

/**
 * The performance bars of docs/performance.md, held without timing anything: bundle sizes (the
 * same esbuild build `cdk synth` runs, infra/bundling.ts) and the DynamoDB round trips and
 * write units of the request scenarios (the recording client against the test stack).
 *
 * Where the code misses a bar today (one bundle), the bar is a `test.failing` (it starts
 * failing, i.e. asks to become a plain test, the day the code meets it) and a ceiling at today's
 * figure keeps it from getting worse meanwhile. docs/performance.md lists the miss, its cause
 * and the fixes proposed.
 */
const KNOWN_MISSES = {
  /** Its SDK-only part (DynamoDB, S3 and the presigner) is 475 KB already. */
  bundleBytes: { "submissions/export-submissions": 560 * 1024 } as Record<string, number>,
};

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe("bundle sizes (the build cdk synth runs)", () => {
  let sizes: Map<string, number>;
  beforeAll(async () => {
    const { bundles } = await buildBundles(functionEntryPoints(), join(tmpdir(), "inlet-perf-bundles"), false);
    sizes = new Map([...bundles.values()].map((b) => [b.name, b.bytes]));
  }, 300_000);

  test("every function is bundled", () => {
    expect([...sizes.keys()].sort()).toEqual(functionEntries().map((e) => e.handler).sort());
  });

  test(`every function's bundle is at most ${kb(MAX_BUNDLE_BYTES)} (known misses: at most their ceiling)`, () => {
    const over = [...sizes.entries()]
      .filter(([name, bytes]) => bytes > (KNOWN_MISSES.bundleBytes[name] ?? MAX_BUNDLE_BYTES))
      .map(([name, bytes]) => `${name}: ${kb(bytes)}`);
    expect(over).toEqual([]);
  });

  for (const name of Object.keys(KNOWN_MISSES.bundleBytes)) {
    test.failing(`bar, missed today (docs/performance.md): ${name} is at most ${kb(MAX_BUNDLE_BYTES)}`, () => {
      expect(sizes.get(name)).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
    });
  }
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

  test(`an API-key read takes at most ${BARS.apiKeyRead.sequentialRoundTrips} sequential round trips, auth and rate limit included`, () => {
    atMost("api-key-read", "sequentialRoundTrips", BARS.apiKeyRead.sequentialRoundTrips);
  });
});
