#!/usr/bin/env node
/**
 * `npm test`: jest's two projects (jest.config.mjs: test/standalone needs Node alone,
 * test/local-stack the local stack its global setup starts), then the dashboard's tests
 * (Playwright, in Chromium). Paths narrow it: `npm test -- test/local-stack/http/x.test.ts` runs
 * jest on those, `npm test -- test/e2e/inbox.spec.ts` Playwright on those.
 *
 * The whole run takes the performance bars (test/local-stack/perf) in a jest run of their own,
 * after the rest, on a stack of their own: they seed forms of 5,000 submissions, which keep the
 * local bookkeeper (counts and search index, a few writes each, on DynamoDB Local's few hundred
 * writes a second) busy for minutes, and the other tests wait for what it keeps.
 */
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const specs = args.filter((a) => a.endsWith(".spec.ts") || a.startsWith("test/e2e"));
const rest = args.filter((a) => !specs.includes(a));
const run = (command, commandArgs) => {
  const { status } = spawnSync(command, commandArgs, { stdio: "inherit" });
  if (status !== 0) process.exit(status ?? 1);
};

const jest = (jestArgs) => run(process.execPath, ["--experimental-vm-modules", "node_modules/jest/bin/jest.js", ...jestArgs]);
const PERF = "test/local-stack/perf/";
if (args.length === 0) {
  // Two workers: most of these tests wait on the stack (the pipeline, retries a second apart),
  // not on the CPU; jest's default here (cores − 1) is one. Measured: 427 s against 747 s.
  jest(["--testPathIgnorePatterns", "/node_modules/", PERF, "--maxWorkers", "2"]);
  // The budgets last (test/support/perf-sequencer.cjs): the backlog their fixtures leave the
  // bookkeeper would hold up the files that time it.
  jest([PERF, "--testSequencer", "./test/support/perf-sequencer.cjs"]);
} else if (rest.length > 0) {
  jest(rest);
}
if (args.length === 0 || specs.length > 0) {
  run(process.execPath, ["node_modules/@playwright/test/cli.js", "test", ...specs]);
}
