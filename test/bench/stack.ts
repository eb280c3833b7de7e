import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LocalStackInfo } from "../../infra/local/stack-file";
import { TEST_ADMIN_EMAIL } from "../support/constants";
import { PROJECT_ROOT } from "./bundles";

export interface BenchStack {
  info: LocalStackInfo & { benchUrl: string };
  logPath: string;
  stop: () => Promise<void>;
}

/**
 * Starts the local stack (test/bench/stack-process.ts) in its own process group with a fresh
 * data folder, waits until it is ready, and sets this process's environment to its endpoints
 * so handlers imported here use the same DynamoDB Local (and the test helpers its gateway).
 */
export async function startBenchStack(): Promise<BenchStack> {
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-bench-"));
  // Kept after the run (the data folder is not): .bench/stack.log.
  mkdirSync(join(PROJECT_ROOT, ".bench"), { recursive: true });
  const logPath = join(PROJECT_ROOT, ".bench", "stack.log");
  const log = openSync(logPath, "w");
  // The stack runs the service's defaults: the scenarios' longer configuration cache stays theirs.
  const { INTAKE_CACHE_SECONDS: _scenarios, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "test/bench/stack-process.ts"], {
    cwd: PROJECT_ROOT,
    env: {
      ...inherited,
      PORT: "0",
      DATA_DIR: dataDir,
      PLATFORM_ADMIN_EMAILS: TEST_ADMIN_EMAIL,
      // Only signup and login hash passwords; the scenarios do not time them.
      PASSWORD_HASH_COST: "1024",
    },
    detached: true,
    stdio: ["ignore", log, log],
  });
  const ready = join(dataDir, "bench-gateway.json");
  const deadline = Date.now() + 120_000;
  while (!existsSync(ready)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the bench stack did not start:\n${readFileSync(logPath, "utf8").slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const info = JSON.parse(readFileSync(ready, "utf8")) as BenchStack["info"];
  Object.assign(process.env, {
    INLET_URL: info.url.replace("localhost", "127.0.0.1"),
    BASE_URL: info.baseUrl,
    TABLE_NAME: info.tableName,
    DYNAMODB_ENDPOINT: info.dynamodbEndpoint,
    SQS_ENDPOINT: info.sqsEndpoint,
    QUEUE_URL: info.queueUrl,
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: "local",
    AWS_SECRET_ACCESS_KEY: "local",
    PLATFORM_ADMIN_EMAILS: TEST_ADMIN_EMAIL,
  });
  const stop = async () => {
    const pid = child.pid;
    if (!pid || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    // Its own process group: the gateway process and DynamoDB Local's JVM stop together.
    process.kill(-pid, "SIGTERM");
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, 10_000);
    await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { info, logPath, stop };
}
