/**
 * `npm run bench`: cold start per function, DynamoDB work per request, cost per million
 * submissions and the local stack's throughput (docs/performance.md explains each figure).
 * Writes .bench/result.json and prints a table per section.
 *
 *   npm run bench                               everything
 *   npm run bench -- --only cold,db             some sections (cold, db, cost, throughput);
 *                                               the others keep their last values in the JSON
 *   npm run bench -- --runs 21 --seconds 20     more cold-start runs, longer load runs
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PROJECT_ROOT } from "./bundles";

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    runs: { type: "string", default: "15" },
    seconds: { type: "string", default: "10" },
    "cost-runs": { type: "string", default: "30" },
    concurrency: { type: "string", default: "1,8,32" },
  },
});
const sections = new Set((values.only ?? "cold,db,cost,throughput").split(",").map((s) => s.trim()));
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
  machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, loadAverage: loadavg() },
  startedAt: new Date().toISOString(),
};
const printed: string[] = [];
const save = () => writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);

// 1. Cold start: first, before this run starts DynamoDB Local's JVM on the same cores.
if (sections.has("cold")) {
  const { measureColdStarts } = await import("./cold-start");
  const { coldStartReport } = await import("./report");
  const cold = await measureColdStarts({ runs, log });
  result.coldStart = cold;
  save();
  printed.push(coldStartReport(cold));
}

if (sections.has("db") || sections.has("cost") || sections.has("throughput")) {
  const { startBenchStack } = await import("./stack");
  log("starting the local stack...");
  const stack = await startBenchStack();
  try {
    // Everything below reads the configuration the stack's endpoints were just written to.
    const { Recorder } = await import("../support/recording-client");
    const { prepareFixture, runScenarios, loadHandlers } = await import("./scenarios");
    const report = await import("./report");
    const fixture = await prepareFixture();
    const handlers = await loadHandlers();

    let scenarios = previous.scenarios as import("./scenarios").ScenarioResult[] | undefined;
    if (sections.has("db") || sections.has("cost")) {
      log("recording the DynamoDB work of each scenario...");
      const recorder = new Recorder();
      try {
        scenarios = await runScenarios(recorder, fixture, handlers);
      } finally {
        recorder.uninstall();
      }
      result.scenarios = scenarios;
      save();
      printed.push(report.scenarioReport(scenarios));
    }

    if (sections.has("cost") && scenarios) {
      const { measureRuntime, costPerMillion } = await import("./cost");
      log(`timing ${costRuns} intake and consumer invocations...`);
      const runtime = await measureRuntime({ fixture, runs: costRuns, recorderFactory: () => new Recorder() });
      const clean = scenarios.find((s) => s.id === "clean-intake");
      if (!clean) throw new Error("no clean intake scenario");
      const cost = costPerMillion({ intakeWcu: clean.summary.wcu, intakeRcu: clean.summary.rcu, runtime });
      result.runtime = runtime;
      result.cost = cost;
      save();
      printed.push(report.costReport(cost, runtime));
    }

    if (sections.has("throughput")) {
      const { measureThroughput } = await import("./throughput");
      const levels = await measureThroughput({
        benchUrl: stack.info.benchUrl,
        owner: fixture.owner,
        siteId: fixture.siteId,
        concurrencies,
        seconds,
        log,
      });
      result.throughput = levels;
      save();
      printed.push(report.throughputReport(levels));
    }
  } finally {
    log("stopping the local stack...");
    await stack.stop();
  }
}

result.finishedAt = new Date().toISOString();
save();
process.stdout.write(`\n${printed.join("\n\n")}\n\nWritten: ${resultFile}\n`);
