import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { TEST_ADMIN_EMAIL } from "./test/support/constants";

/**
 * The dashboard's tests: Playwright drives Debian's Chromium (never a downloaded browser:
 * `executablePath`, no `channel`) against the same local stack `npm start` runs, on its own
 * port and a fresh data folder, with the dashboard built first when stale (docs/dashboard.md).
 */
const port = Number(process.env.E2E_PORT ?? 3100);
// Set once in the main process; the workers inherit it, so they find the same stack.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "inlet-e2e-"));

export const CHROMIUM_ARGS = [
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

export default defineConfig({
  testDir: "test/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: join(process.env.E2E_DATA_DIR, "results"),
  workers: 2,
  // Sized for the slowest machine the suite has met: on one whose Chromium ran a sign-in 3 to 4
  // times slower than before (2026-11-27), the axe tests (several pages, light and dark) took
  // 40 to 55 s, and five failed a 45 s limit while every assertion held. Twice that, and more.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: "list",
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: "chromium",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS },
    trace: "retain-on-failure",
  },
  projects: [
    { name: "dashboard", testIgnore: ["**/inbox-volume.spec.ts", "**/import-volume.spec.ts"] },
    // Its 5,000 seeded submissions keep the local pipeline busy for a while (leads are graded
    // one by one): it runs after the others, so their waits for a grade are not stuck behind it.
    // An import of 1,000 rows keeps the bookkeeper busy the same way.
    // The triage flows again at a phone's width (issue text: people answer leads from their
    // phone): the same spec, a 390 × 844 touch screen; what cannot apply there skips with its reason.
    {
      name: "phone",
      testMatch: ["**/triage.spec.ts"],
      use: { viewport: { width: 390, height: 844 }, hasTouch: true },
    },
    {
      name: "volume",
      testMatch: ["**/inbox-volume.spec.ts", "**/import-volume.spec.ts"],
      dependencies: ["dashboard"],
    },
  ],
  webServer: {
    command: "node --import tsx infra/local/start.ts",
    // The dashboard's index.html: the gateway is up and the build is served.
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR,
      // A low scrypt cost keeps sign-ups fast in tests; production uses 2^15 (lib/config.ts).
      PASSWORD_HASH_COST: "1024",
      LOG_LEVEL: "warn",
      INLET_GRANTS: "enforce",
      PURGE_GRACE_SECONDS: "0",
      // Intake reads the webhook and its site on every request, as in jest's stack: a page that
      // turns a source or a site off, then posts, sees the refusal at once (docs/intake.md,
      // "Configuration cache").
      INTAKE_CACHE_SECONDS: "0",
      // Every erasure request answers after one form, so the site settings page's progress
      // over several requests (and their cursor) is exercised with a handful of submissions.
      ERASE_TIME_BUDGET_MS: "0",
      // The platform admin of the browser tests (test/e2e/support/settings.ts), as jest's stack has
      // it; with the list set, the local first-account rule stays off, so no test wins it by chance.
      PLATFORM_ADMIN_EMAILS: TEST_ADMIN_EMAIL,
    },
  },
});
