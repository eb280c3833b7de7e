import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LocalStackInfo, stackFile } from "../../infra/local/stack-file";
import { CLAIMABLE_ADMIN_EMAILS, TEST_ADMIN_EMAIL } from "./constants";
import { type FakeCaptcha, startFakeCaptcha, TEST_TIMEOUT_MS } from "./fake-captcha";

declare global {
  // The stack process handle travels from setup to teardown.
  var __INLET_STACK__: ChildProcess | undefined;
  // The fake captcha provider travels from setup to teardown.
  var __INLET_FAKE_CAPTCHA__: FakeCaptcha | undefined;
}

/** A test stack's data folder (its log and its DynamoDB file, ~300 MB) is kept this long after its last write, for a failure's diagnosis. */
const KEEP_DATA_DIR_MS = 6 * 3_600_000;

/**
 * Removes earlier runs' data folders once nothing has written to them for KEEP_DATA_DIR_MS: a run
 * takes minutes, so a folder still in use is never one of them, and a machine that runs the tests
 * all day keeps hours of folders, not every run's.
 */
function pruneDataDirs(now = Date.now()): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith("inlet-test-")) continue;
    const dir = join(tmpdir(), name);
    try {
      const log = join(dir, "stack.log");
      const lastWrite = Math.max(statSync(dir).mtimeMs, existsSync(log) ? statSync(log).mtimeMs : 0);
      if (now - lastWrite > KEEP_DATA_DIR_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another run's setup meanwhile, or not ours to remove: left alone.
    }
  }
}

/**
 * Starts the same local stack `npm start` runs (DynamoDB Local, the SQS emulator, the gateway)
 * on free ports with a fresh data folder, and hands its endpoints to the test workers through
 * the environment (workers are forked after this runs and inherit it).
 */
export default async function globalSetup(): Promise<void> {
  const root = process.cwd();
  pruneDataDirs();
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-test-"));
  const logPath = join(dataDir, "stack.log");
  // The captcha providers' stand-in (test/support/fake-captcha.ts), up before the stack reads its URLs.
  const captcha = await startFakeCaptcha();
  globalThis.__INLET_FAKE_CAPTCHA__ = captcha;
  const log = openSync(logPath, "a");
  const env = {
    ...process.env,
    PORT: "0",
    DATA_DIR: dataDir,
    // A low scrypt cost keeps signups fast in tests; production uses 2^15 (lib/config.ts).
    PASSWORD_HASH_COST: "1024",
    PLATFORM_ADMIN_EMAILS: [TEST_ADMIN_EMAIL, ...CLAIMABLE_ADMIN_EMAILS].join(","),
    LOG_LEVEL: "warn",
    PURGE_GRACE_SECONDS: "0",
    // Intake reads a webhook, its site and its form on every request, so a test that disables,
    // archives or rotates and then posts sees the change at once. The cache a warm instance
    // keeps (lib/intake/intake-config.ts) is tested with its own gateway processes
    // (test/local-stack/http/intake-instances.test.ts) and measured by the budgets.
    INTAKE_CACHE_SECONDS: "0",
    // No background TTL sweeps (infra/local/ttl-sweeper.ts): some tests read an item kept past its
    // ttl on purpose ("refused while it lingers"); the retention tests call sweepExpired() themselves.
    LOCAL_TTL_SWEEP_SECONDS: "0",
    // A retention job's pass re-dates 50 submissions here (500 in AWS): a few hundred show several passes.
    RETENTION_PASS_SIZE: "50",
    CAPTCHA_SCORE_VERIFY_URL: captcha.scoreUrl,
    CAPTCHA_CHALLENGE_VERIFY_URL: captcha.challengeUrl,
    CAPTCHA_TIMEOUT_MS: String(TEST_TIMEOUT_MS),
    // Outbound webhooks: receivers on loopback (test/support/outbound-receiver.ts), retries a
    // second apart and a short attempt timeout, so the retry tests take seconds, not hours.
    ALLOW_PRIVATE_WEBHOOK_TARGETS: "true",
    OUTBOUND_RETRY_SCHEDULE_SECONDS: "1,1,1,1",
    OUTBOUND_TIMEOUT_MS: "2000",
    // Every function is held to its IAM table grant, as in AWS (infra/local/grants.ts); set
    // INLET_GRANTS=record:<file> to list what each function writes instead.
    INLET_GRANTS: process.env.INLET_GRANTS ?? "enforce",
  };
  const child = spawn(process.execPath, ["--import", "tsx", "infra/local/start.ts"], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", log, log],
  });
  globalThis.__INLET_STACK__ = child;

  const file = stackFile(dataDir);
  const deadline = Date.now() + 90_000;
  while (!existsSync(file)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`The local stack did not start:\n${readFileSync(logPath, "utf8")}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const info = JSON.parse(readFileSync(file, "utf8")) as LocalStackInfo;
  Object.assign(process.env, {
    INLET_URL: info.url.replace("localhost", "127.0.0.1"),
    INLET_STACK_LOG: logPath,
    BASE_URL: info.baseUrl,
    TABLE_NAME: info.tableName,
    DYNAMODB_ENDPOINT: info.dynamodbEndpoint,
    SQS_ENDPOINT: info.sqsEndpoint,
    // The stack's SES emulator: tests read the emails sent at `${INLET_SES_URL}/store`; a consumer
    // run in a test process sends there too.
    INLET_SES_URL: info.sesEndpoint,
    SES_ENDPOINT: info.sesEndpoint,
    // SES's events reach the stack's email events function through its EventBridge stand-in
    // (test/support/ses-events.ts); a consumer run in a test process names the same configuration set.
    INLET_EVENTS_URL: info.eventBusEndpoint,
    SES_CONFIGURATION_SET: info.sesConfigurationSet,
    QUEUE_URL: info.queueUrl,
    INLET_DLQ_URL: info.dlqUrl,
    // The stack's bucket (the SQS emulator serves S3 too): an import pass run in a test process
    // reads the rows its test stored there.
    EXPORT_BUCKET: info.exportBucket,
    S3_ENDPOINT: info.sqsEndpoint,
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: "local",
    AWS_SECRET_ACCESS_KEY: "local",
    PASSWORD_HASH_COST: env.PASSWORD_HASH_COST,
    PLATFORM_ADMIN_EMAILS: env.PLATFORM_ADMIN_EMAILS,
    LOG_LEVEL: env.LOG_LEVEL,
    INTAKE_CACHE_SECONDS: env.INTAKE_CACHE_SECONDS,
    CAPTCHA_SCORE_VERIFY_URL: env.CAPTCHA_SCORE_VERIFY_URL,
    CAPTCHA_CHALLENGE_VERIFY_URL: env.CAPTCHA_CHALLENGE_VERIFY_URL,
    CAPTCHA_TIMEOUT_MS: env.CAPTCHA_TIMEOUT_MS,
    ALLOW_PRIVATE_WEBHOOK_TARGETS: env.ALLOW_PRIVATE_WEBHOOK_TARGETS,
    OUTBOUND_RETRY_SCHEDULE_SECONDS: env.OUTBOUND_RETRY_SCHEDULE_SECONDS,
    OUTBOUND_TIMEOUT_MS: env.OUTBOUND_TIMEOUT_MS,
    FAKE_CAPTCHA_URL: captcha.url,
  });
}
