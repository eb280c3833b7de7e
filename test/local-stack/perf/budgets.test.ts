import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Metafile } from "esbuild";
import { QUEUE_CONSUMER, ROUTES } from "../../../functions/routes";
import { MAX_SEARCH_KEYS } from "../../../lib/search-keys";
import {
  type BuiltBundle,
  buildBundles,
  functionEntries,
  functionEntryPoints,
  includesInput,
  MAX_BUNDLE_BYTES,
  type SdkClient,
} from "../../bench/bundles";
import { type ConsumerBatchResult, measureConsumerBatch } from "../../bench/consumer-batch";
import { measureRuntime, type RuntimeResult, systemLogBytesPerInvocation } from "../../bench/cost";
import {
  type BookkeeperWork,
  COUNT_BARS,
  type CountReadResult,
  FORM_SIZES,
  measureBookkeeper,
  prepareCountFixture,
  runCountReads,
} from "../../bench/count-scenarios";
import {
  FILTER_BARS,
  FILTER_PAGE,
  FILTER_SIZES,
  type FilterKind,
  type FilterResult,
  loadListHandler as loadFilterListHandler,
  prepareFilterFixture,
  runFilterScenarios,
  runStatusChanges,
  STATUS_CHANGE_BARS,
} from "../../bench/filter-scenarios";
import { BARS, holdConfigurationForScenarios, prepareFixture, runScenarios, type ScenarioResult } from "../../bench/scenarios";
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
    holdConfigurationForScenarios();
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
      ["clean-intake-held", 200],
      ["config-miss", 200],
      ["spam-intake", 200],
      ["ads-lead", 200],
      ["duplicate-lead", 200],
      ["idempotent-repeat", 200],
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

  test(`a clean intake submission on an instance that has not kept the configuration takes at most ${BARS.configMiss.sequentialRoundTrips} round trips`, () => {
    atMost("config-miss", "sequentialRoundTrips", BARS.configMiss.sequentialRoundTrips);
  });

  test("a spam submission costs no more than a clean one: the same round trips, no more write or read units", () => {
    const clean = summary("clean-intake");
    const spam = summary("spam-intake");
    expect({ roundTrips: spam.sequentialRoundTrips, calls: spam.calls.length }).toEqual({
      roundTrips: clean.sequentialRoundTrips,
      calls: clean.calls.length,
    });
    expect(spam.wcu).toBeLessThanOrEqual(clean.wcu);
    expect(spam.rcu).toBeLessThanOrEqual(clean.rcu);
  });

  test("a number held by the instance saves its reservation: one write unit and no round trip", () => {
    const reserving = summary("clean-intake");
    const held = summary("clean-intake-held");
    expect(held.sequentialRoundTrips).toBe(reserving.sequentialRoundTrips);
    expect(held.wcu).toBe(reserving.wcu - 1);
  });

  test(`an advertising-platform lead takes at most ${BARS.adsLead.sequentialRoundTrips} sequential round trips`, () => {
    atMost("ads-lead", "sequentialRoundTrips", BARS.adsLead.sequentialRoundTrips);
  });

  test(`a duplicate lead consumes ${BARS.duplicateLead.wcu} write units and no reference number`, () => {
    atMost("duplicate-lead", "wcu", BARS.duplicateLead.wcu);
  });

  test("an Idempotency-Key repeat writes nothing but its IP's rate counter (docs/spam.md)", () => {
    const writes = summary("idempotent-repeat").calls.filter((c) => c.wcu > 0);
    expect(writes.map((c) => [c.command, c.keys.map((k) => k.split("#")[0])])).toEqual([["UpdateItem", ["COUNTER"]]]);
  });

  test(`an API-key read takes at most ${BARS.apiKeyRead.sequentialRoundTrips} sequential round trips, auth and rate limit included`, () => {
    atMost("api-key-read", "sequentialRoundTrips", BARS.apiKeyRead.sequentialRoundTrips);
  });
});

describe("counts: reads that do not grow with the form, and the bookkeeper's writes per batch", () => {
  let reads: CountReadResult[];
  let bookkeeper: BookkeeperWork;
  beforeAll(async () => {
    const fixture = await prepareCountFixture();
    const recorder = new Recorder();
    try {
      reads = await runCountReads(recorder, fixture);
      bookkeeper = await measureBookkeeper(recorder);
    } finally {
      recorder.uninstall();
    }
  }, 300_000);

  const over = (what: string, summary: RecordingSummary, key: "rcu" | "wcu" | "sequentialRoundTrips", limit: number) => {
    if (summary[key] > limit) throw new Error(`${what}: ${key} ${summary[key]} > ${limit}\n${describeCalls(summary)}`);
  };

  test("the forms answer their counts, exact, for each size", () => {
    expect(reads.map((r) => [r.size, r.counts])).toEqual(
      FORM_SIZES.map((size) => [size, { submissionCount: 40, spamCount: size - 40 }]),
    );
  });

  test(`form detail: at most ${COUNT_BARS.formDetail.rcu} read units and ${COUNT_BARS.formDetail.sequentialRoundTrips} round trips, the same for ${FORM_SIZES.join(" and ")} submissions`, () => {
    for (const r of reads) {
      over(`form detail, ${r.size}`, r.detail, "rcu", COUNT_BARS.formDetail.rcu);
      over(`form detail, ${r.size}`, r.detail, "sequentialRoundTrips", COUNT_BARS.formDetail.sequentialRoundTrips);
    }
    expect(new Set(reads.map((r) => r.detail.rcu)).size).toBe(1);
  });

  test(`forms list: at most ${COUNT_BARS.formsList.rcu} read units and ${COUNT_BARS.formsList.sequentialRoundTrips} round trips, the same for ${FORM_SIZES.join(" and ")} submissions`, () => {
    for (const r of reads) {
      over(`forms list, ${r.size}`, r.list, "rcu", COUNT_BARS.formsList.rcu);
      over(`forms list, ${r.size}`, r.list, "sequentialRoundTrips", COUNT_BARS.formsList.sequentialRoundTrips);
    }
    expect(new Set(reads.map((r) => r.list.rcu)).size).toBe(1);
  });

  test(`the bookkeeper's counts write at most ${COUNT_BARS.bookkeeperBatchOfOne.wcu} units for a batch of one, and ${COUNT_BARS.bookkeeperBatchOf100.wcu} for 100 submissions of one form; its search index at most ${MAX_SEARCH_KEYS} per submission`, () => {
    // The counts job is the batch's transactions; the search index job (another step over the
    // same records) is its BatchWriteItem calls, bounded by the keys a submission may have.
    const job = (summary: RecordingSummary, command: string) => {
      const calls = summary.calls.filter((c) => c.command === command);
      return { ...summary, calls, wcu: calls.reduce((sum, c) => sum + c.wcu, 0) };
    };
    const counts = (summary: RecordingSummary) => job(summary, "TransactWriteItems");
    over("bookkeeper counts, batch of one", counts(bookkeeper.batchOfOne), "wcu", COUNT_BARS.bookkeeperBatchOfOne.wcu);
    over("bookkeeper counts, batch of 100", counts(bookkeeper.batchOf100), "wcu", COUNT_BARS.bookkeeperBatchOf100.wcu);
    over("bookkeeper search index, batch of one", job(bookkeeper.batchOfOne, "BatchWriteItem"), "wcu", MAX_SEARCH_KEYS);
    over("bookkeeper search index, batch of 100", job(bookkeeper.batchOf100, "BatchWriteItem"), "wcu", 100 * MAX_SEARCH_KEYS);
    // One transaction each: the counters of one form, webhook and day, and the checkpoint.
    expect(counts(bookkeeper.batchOfOne).calls).toHaveLength(1);
    expect(counts(bookkeeper.batchOf100).calls).toHaveLength(1);
    // 100 forms and webhooks: 201 counters, so three transactions of at most 100 items.
    expect(counts(bookkeeper.batchOf100Spread).calls).toHaveLength(3);
    // Nothing else: the two jobs' writes are all the bookkeeper does.
    for (const b of [bookkeeper.batchOfOne, bookkeeper.batchOf100, bookkeeper.batchOf100Spread]) {
      expect(new Set(b.calls.map((c) => c.command))).toEqual(new Set(["TransactWriteItems", "BatchWriteItem"]));
    }
    console.log(
      `bookkeeper WCU per batch: one ${bookkeeper.batchOfOne.wcu}, 100 of one form ${bookkeeper.batchOf100.wcu}, 100 of 100 forms ${bookkeeper.batchOf100Spread.wcu}; ` +
        `form detail RCU ${reads.map((r) => `${r.size}: ${r.detail.rcu}`).join(", ")}; forms list RCU ${reads.map((r) => `${r.size}: ${r.list.rcu}`).join(", ")}`,
    );
  });
});

describe("the queue consumer and the log lines of a clean submission", () => {
  let single: RuntimeResult;
  let batch: ConsumerBatchResult;

  beforeAll(async () => {
    const fixture = await prepareFixture("perf-pipeline");
    single = await measureRuntime({ fixture, runs: 2, recorderFactory: () => new Recorder() });
    batch = await measureConsumerBatch({
      fixture,
      size: QUEUE_CONSUMER.batchSize,
      runs: 1,
      recorderFactory: () => new Recorder(),
    });
  }, 120_000);

  test(`the consumer's own writes are at most ${BARS.consumer.wcuPerSubmission} units per submission, alone and in a full batch`, () => {
    const perSubmission = [single.consumerWork.wcu, batch.work.wcu / batch.size];
    for (const [i, wcu] of perSubmission.entries()) {
      const work = i === 0 ? single.consumerWork : batch.work;
      if (wcu > BARS.consumer.wcuPerSubmission) throw new Error(`${wcu} WCU per submission\n${describeCalls(work)}`);
    }
    expect(batch.size).toBe(10);
  });

  test(`a clean submission writes at most ${BARS.logBytesPerSubmission} log bytes at the default level, Lambda's own lines included where they are sent`, () => {
    const bytes = single.intake.logBytesPerInvocation + single.consumer.logBytesPerInvocation + 2 * systemLogBytesPerInvocation();
    expect([bytes, single.intake.sampleLog]).toEqual([expect.any(Number), expect.stringContaining('"message":"request done"')]);
    expect(bytes).toBeLessThanOrEqual(BARS.logBytesPerSubmission);
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

describe(`triage filters: the same round trips and units in a form of ${FILTER_SIZES.small} and of ${FILTER_SIZES.large} submissions`, () => {
  let results: FilterResult[];
  let changes: Awaited<ReturnType<typeof runStatusChanges>>;
  const of = (kind: FilterKind, size: keyof typeof FILTER_SIZES) => {
    const found = results.find((r) => r.kind === kind && r.size === size);
    if (!found) throw new Error(`no scenario ${kind} ${size}`);
    return found;
  };

  beforeAll(async () => {
    const handler = await loadFilterListHandler();
    const fixture = await prepareFilterFixture();
    const recorder = new Recorder();
    try {
      results = await runFilterScenarios(recorder, fixture, handler);
      changes = await runStatusChanges(recorder, fixture);
    } finally {
      recorder.uninstall();
    }
    console.log(
      `filters: ${results.map((r) => `${r.kind} ${r.size}: ${r.found} found, ${r.summary.rcu} RCU, ${r.summary.sequentialRoundTrips} trips`).join("; ")}; ` +
        `status change: ${changes.map((c) => `${c.size}: ${c.summary.wcu} WCU, ${c.summary.sequentialRoundTrips} trips`).join("; ")}`,
    );
  }, 600_000);

  // The unread pages stop at their bound of 5 queries over the member's read pairs; the others fill the page.
  const FOUND: Record<keyof typeof FILTER_BARS, number> = {
    status: FILTER_PAGE,
    owner: FILTER_PAGE,
    tag: FILTER_PAGE,
    combined: FILTER_PAGE,
    unread: 8,
    "unread-status": 4,
  };

  test.each(Object.keys(FILTER_BARS) as (keyof typeof FILTER_BARS)[])(
    "%s: its first page at both sizes, within its bars, the same calls",
    (kind) => {
      const small = of(kind, "small");
      const large = of(kind, "large");
      expect([small.found, large.found]).toEqual([FOUND[kind], FOUND[kind]]);
      for (const s of [small.summary, large.summary]) {
        if (s.rcu > FILTER_BARS[kind].rcu || s.sequentialRoundTrips > FILTER_BARS[kind].sequentialRoundTrips) {
          throw new Error(`${kind}: ${s.rcu} RCU, ${s.sequentialRoundTrips} round trips\n${describeCalls(s)}`);
        }
      }
      expect(large.summary.rcu).toBe(small.summary.rcu);
      expect(large.summary.sequentialRoundTrips).toBe(small.summary.sequentialRoundTrips);
      expect(large.summary.calls.map((c) => c.command)).toEqual(small.summary.calls.map((c) => c.command));
    },
  );

  test(`a status change (its write and the bookkeeper's for its record): at most ${STATUS_CHANGE_BARS.wcu} write units and ${STATUS_CHANGE_BARS.sequentialRoundTrips} round trips, the same at both sizes`, () => {
    const [small, large] = changes.map((c) => c.summary) as [RecordingSummary, RecordingSummary];
    for (const s of [small, large]) {
      if (s.wcu > STATUS_CHANGE_BARS.wcu || s.sequentialRoundTrips > STATUS_CHANGE_BARS.sequentialRoundTrips) {
        throw new Error(`status change: ${s.wcu} WCU, ${s.sequentialRoundTrips} round trips\n${describeCalls(s)}`);
      }
    }
    expect(large.wcu).toBe(small.wcu);
  });

  test("the plain inbox's first page, for comparison: the filters read no more than it does in the large form", () => {
    const inbox = of("inbox", "large").summary;
    expect(of("inbox", "large").found).toBe(FILTER_PAGE);
    for (const kind of ["status", "owner", "tag", "combined"] as const)
      expect(of(kind, "large").summary.rcu).toBeLessThanOrEqual(inbox.rcu);
  });
});
