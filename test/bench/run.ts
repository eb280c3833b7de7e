/**
 * `npm run bench`: cold start per function, DynamoDB work per request, cost per million
 * submissions and the local stack's throughput (docs/performance.md explains each figure).
 * Writes .bench/result.json and prints a table per section.
 *
 *   npm run bench                               everything
 *   npm run bench -- --only cold,db             some sections (cold, db, cost, throughput, batching, digest, filters, import);
 *                                               the others keep their last values in the JSON
 *   npm run bench -- --only batching --rate 50 --batching-seconds 20
 *                                               the queue's batches at a sustained rate
 *   npm run bench -- --only import              a 50,000-row import (--import-rows N for another size)
 *   npm run bench -- --runs 31 --seconds 20     more cold-start runs (default 25, at least 15), longer load runs
 *   npm run bench -- --only cold --functions forms/,intake/
 *                                               cold starts of some functions only (a look while
 *                                               working on them; the JSON keeps the full run)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PROJECT_ROOT } from "./bundles";

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    runs: { type: "string", default: "25" },
    seconds: { type: "string", default: "10" },
    "cost-runs": { type: "string", default: "30" },
    concurrency: { type: "string", default: "1,8,32" },
    functions: { type: "string" },
    rate: { type: "string", default: "50" },
    "batching-seconds": { type: "string", default: "20" },
    "import-rows": { type: "string", default: "50000" },
  },
});
const sections = new Set((values.only ?? "cold,db,cost,digest,filters,throughput,batching").split(",").map((s) => s.trim()));
const runs = Math.max(15, Number(values.runs));
const seconds = Number(values.seconds);
const costRuns = Number(values["cost-runs"]);
const concurrencies = (values.concurrency ?? "1,8,32").split(",").map(Number);

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const resultFile = join(PROJECT_ROOT, ".bench", "result.json");
mkdirSync(join(PROJECT_ROOT, ".bench"), { recursive: true });
const previous = existsSync(resultFile) ? (JSON.parse(readFileSync(resultFile, "utf8")) as Record<string, unknown>) : {};
const result: Record<string, unknown> = {
  ...previous,
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadAverage: loadavg(),
  },
  startedAt: new Date().toISOString(),
};
const save = () => writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);

// 1. Cold start: first, before this run starts DynamoDB Local's JVM on the same cores.
if (sections.has("cold")) {
  const { measureColdStarts } = await import("./cold-start");
  const only = values.functions
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const cold = await measureColdStarts({ runs, log, ...(only ? { only } : {}) });
  if (only) {
    const { coldStartReport } = await import("./report");
    process.stdout.write(`${coldStartReport(cold)}\n`);
    process.exit(0);
  }
  result.coldStart = cold;
  save();
}

// 2 and 3. In this process, against the emulators and the gateway without the pipeline.
if (sections.has("db") || sections.has("cost")) {
  const { startEmulated } = await import("./emulated");
  const { holdConfigurationForScenarios } = await import("./scenarios");
  holdConfigurationForScenarios();
  log("starting the emulators and the gateway in process...");
  const emulated = await startEmulated();
  try {
    // Everything below reads the configuration just written to the environment.
    const { Recorder } = await import("../support/recording-client");
    const { prepareFixture, runScenarios, loadHandlers } = await import("./scenarios");
    const fixture = await prepareFixture();
    const handlers = await loadHandlers();

    log("recording the DynamoDB work of each scenario...");
    const recorder = new Recorder();
    let scenarios: import("./scenarios").ScenarioResult[];
    try {
      scenarios = await runScenarios(recorder, fixture, handlers);
    } finally {
      recorder.uninstall();
    }
    result.scenarios = scenarios;
    save();

    if (sections.has("cost")) {
      const { measureRuntime, costPerMillion, notifyOnSubmissions, emailsHeld } = await import("./cost");
      const clean = scenarios.find((s) => s.id === "clean-intake");
      if (!clean) throw new Error("no clean intake scenario");
      log(`timing ${costRuns} intake and consumer invocations (form without a notification address)...`);
      const withoutEmail = await measureRuntime({ fixture, runs: costRuns, recorderFactory: () => new Recorder() });
      const { measureConsumerBatch } = await import("./consumer-batch");
      const { QUEUE_CONSUMER } = await import("../../functions/routes");
      log(`timing the consumer on batches of ${QUEUE_CONSUMER.batchSize} (form without a notification address)...`);
      result.consumerBatch = await measureConsumerBatch({
        fixture,
        size: QUEUE_CONSUMER.batchSize,
        runs: Math.max(5, Math.round(costRuns / 3)),
        recorderFactory: () => new Recorder(),
      });
      await notifyOnSubmissions(fixture, "owner@example.com");
      const before = await emailsHeld(emulated.sesEndpoint);
      log(`timing ${costRuns} more with one notification address...`);
      const withEmail = await measureRuntime({ fixture, runs: costRuns, recorderFactory: () => new Recorder() });
      const sent = (await emailsHeld(emulated.sesEndpoint)) - before;
      // The warm-up, the timed runs and the recorded one: one email each.
      if (sent !== costRuns + 2) throw new Error(`expected ${costRuns + 2} notification emails, the SES emulator got ${sent}`);
      const { measureBookkeeperRuntime } = await import("./cost");
      log(`timing the bookkeeper at batches of 1 and 100 (${costRuns} and 5 runs)...`);
      const one = await measureBookkeeperRuntime({ runs: costRuns, sizes: [1], recorderFactory: () => new Recorder() });
      const hundred = await measureBookkeeperRuntime({ runs: 5, sizes: [100], recorderFactory: () => new Recorder() });
      const bookkeeper = { bySize: [...one.bySize, ...hundred.bySize] };
      const cost = costPerMillion({
        intakeWcu: clean.summary.wcu,
        intakeRcu: clean.summary.rcu,
        withoutEmail,
        withEmail,
        bookkeeper,
      });
      result.runtime = { withoutEmail, withEmail, emailsSent: sent, bookkeeper };
      result.cost = cost;
      save();
      const { measureDestinationMessage, destinationMessageCost } = await import("./cost");
      log(`timing ${costRuns} chat destination messages...`);
      const destination = await measureDestinationMessage({
        fixture,
        runs: costRuns,
        recorderFactory: () => new Recorder(),
        baseline: withEmail.consumerWork,
      });
      result.destinationMessage = { ...destination, bill: destinationMessageCost(destination) };

      // A confirmation email: the form confirming instead of notifying, then its SES events.
      const confirmation = await import("./cost-confirmation");
      await confirmation.confirmOnSubmissions(fixture);
      const beforeConfirmations = await emailsHeld(emulated.sesEndpoint);
      log(`timing ${costRuns} more with a confirmation email instead...`);
      const withConfirmation = await measureRuntime({ fixture, runs: costRuns, recorderFactory: () => new Recorder() });
      const confirmed = (await emailsHeld(emulated.sesEndpoint)) - beforeConfirmations;
      if (confirmed !== costRuns + 2)
        throw new Error(`expected ${costRuns + 2} confirmations, the SES emulator got ${confirmed}`);
      log(`timing the SES events of ${costRuns} confirmations...`);
      const events = await confirmation.measureConfirmationEvents({ fixture, runs: costRuns, recorder: () => new Recorder() });
      result.confirmation = {
        withConfirmation,
        events,
        cost: confirmation.confirmationCostPerMillion({ without: withoutEmail, withConfirmation, events }),
      };
      save();
    }
  } finally {
    await emulated.stop();
  }
}

// A digest (docs/performance.md, section 15), in this process against the emulators, on fresh
// ones: the scenarios' fixture above holds no member with a digest.
if (sections.has("digest")) {
  const { startEmulated } = await import("./emulated");
  log("starting the emulators and the gateway in process...");
  const emulated = await startEmulated();
  try {
    const { Recorder } = await import("../support/recording-client");
    const { measureDigest } = await import("./digest");
    const { digestCost } = await import("./cost");
    log(`timing ${costRuns} digest runs...`);
    const digest = await measureDigest({ runs: costRuns, recorderFactory: () => new Recorder() });
    result.digest = { ...digest, bill: digestCost(digest) };
    save();
  } finally {
    await emulated.stop();
  }
}

// The inbox's triage filters (docs/performance.md, "Filters and unread"): the first page of each
// filter and of the plain inbox of a 5,000-submission form, side by side, in this process
// against fresh emulators (no bookkeeper: the fixture writes the entries it reads).
if (sections.has("filters")) {
  const { startEmulated } = await import("./emulated");
  log("starting the emulators and the gateway in process...");
  const emulated = await startEmulated();
  try {
    const { prepareFilterFixture, loadListHandler, timeFilters } = await import("./filter-scenarios");
    log("seeding a form of 50 and one of 5,000 submissions with their filter entries...");
    const fixture = await prepareFilterFixture();
    log(`timing ${costRuns} first pages of each filter...`);
    result.filters = await timeFilters(fixture, await loadListHandler(), costRuns);
    save();
  } finally {
    await emulated.stop();
  }
}

// An import of 50,000 rows through the whole local stack (docs/performance.md, "Importing").
if (sections.has("import")) {
  const { startBenchStack } = await import("./stack");
  log("starting the local stack for the import...");
  const stack = await startBenchStack();
  try {
    const { setDb } = await import("../../lib/aws/dynamodb");
    const { documentClient } = await import("./emulated");
    const { createSite, signupOwner } = await import("../support/api");
    const { measureImport } = await import("./import");
    setDb(documentClient(stack.info.dynamodbEndpoint));
    const owner = await signupOwner("bench-import");
    const siteId = await createSite(owner, "Import bench");
    const imported = await measureImport({ owner, siteId, rows: Number(values["import-rows"]), log });
    result.import = imported;
    save();
    process.stdout.write(`${JSON.stringify(imported, null, 2)}\n`);
    if (!imported.withinBudget) {
      // A failed run: the report still prints below, the exit says so.
      process.stdout.write(`FAIL: the import job took ${imported.jobMs} ms, over its budget of ${imported.budgetMs} ms\n`);
      process.exitCode = 1;
    }
  } finally {
    await stack.stop();
  }
}

// 4 and 5. Against the whole local stack in its own process (pipeline included), as `npm start` runs it.
if (sections.has("throughput") || sections.has("batching")) {
  const { startBenchStack } = await import("./stack");
  log("starting the local stack...");
  const stack = await startBenchStack();
  try {
    const { setDb } = await import("../../lib/aws/dynamodb");
    const { documentClient } = await import("./emulated");
    const { createSite, signupOwner } = await import("../support/api");
    const { measureThroughput } = await import("./throughput");
    // This process may have built its client for the emulators above: count in the stack's table.
    setDb(documentClient(stack.info.dynamodbEndpoint));
    const owner = await signupOwner("throughput");
    const siteId = await createSite(owner, "throughput site");
    if (sections.has("throughput")) {
      const levels = await measureThroughput({
        benchUrl: stack.info.benchUrl,
        owner,
        siteId,
        concurrencies,
        seconds,
        log,
      });
      result.throughput = levels;
      save();
    }
    if (sections.has("batching")) {
      const { measureBatching } = await import("./batching");
      result.batching = await measureBatching({
        benchUrl: stack.info.benchUrl,
        owner,
        siteId,
        rate: Number(values.rate),
        seconds: Number(values["batching-seconds"]),
        log,
      });
      save();
    }
  } finally {
    log("stopping the local stack...");
    await stack.stop();
  }
}

// The sustained-rate bill, whenever this run or an earlier one measured both its inputs.
type Runtime = { withoutEmail: import("./cost").RuntimeResult; withEmail: import("./cost").RuntimeResult };
{
  const cost = result.cost as import("./cost").CostResult | undefined;
  const runtime = result.runtime as Runtime | undefined;
  const batch = result.consumerBatch as import("./consumer-batch").ConsumerBatchResult | undefined;
  const batching = result.batching as import("./batching").BatchingResult | undefined;
  if (cost && runtime && batch && batching) {
    const { sustainedBill, sustainedTraffic } = await import("./cost");
    cost.sustained = sustainedBill(cost, sustainedTraffic(batching, runtime.withoutEmail, batch), batching.rate);
  }
}

result.finishedAt = new Date().toISOString();
save();
// Every section the JSON holds, this run's and earlier ones'.
const report = await import("./report");
const printed: string[] = [];
type Scenarios = import("./scenarios").ScenarioResult[];
if (result.coldStart) printed.push(report.coldStartReport(result.coldStart as import("./cold-start").ColdStartResult));
if (result.scenarios) printed.push(report.scenarioReport(result.scenarios as Scenarios));
const runtime = result.runtime as Runtime | undefined;
if (result.cost && runtime?.withEmail) {
  printed.push(
    report.costReport(
      result.cost as import("./cost").CostResult,
      runtime.withoutEmail,
      runtime.withEmail,
      result.consumerBatch as import("./consumer-batch").ConsumerBatchResult | undefined,
    ),
  );
}
if (result.destinationMessage) {
  printed.push(
    report.destinationMessageReport(result.destinationMessage as Parameters<typeof report.destinationMessageReport>[0]),
  );
}
if (result.digest) printed.push(report.digestReport(result.digest as Parameters<typeof report.digestReport>[0]));
if (result.filters) {
  const { filterReport } = await import("./filter-scenarios");
  printed.push(filterReport(result.filters as import("./filter-scenarios").FilterTiming[]));
}
if (result.batching) printed.push(report.batchingReport(result.batching as import("./batching").BatchingResult));
if (result.confirmation) {
  const { confirmationCostReport } = await import("./cost-confirmation");
  const c = result.confirmation as {
    withConfirmation: import("./cost").RuntimeResult;
    events: import("./cost-confirmation").EventsResult;
    cost: import("./cost-confirmation").ConfirmationCost;
  };
  printed.push(confirmationCostReport(c.cost, c.withConfirmation, c.events));
}
if (result.throughput) {
  const clean = (result.scenarios as Scenarios | undefined)?.find((x) => x.id === "clean-intake");
  printed.push(
    report.throughputReport(result.throughput as import("./throughput").ThroughputLevel[], clean?.summary.calls.length),
  );
}
process.stdout.write(`\n${printed.join("\n\n")}\n\nWritten: ${resultFile}\n`);
