/**
 * Jest's two projects, one per top folder of test/, named for what its tests need:
 * - standalone: Node alone (pure logic, servers of their own on loopback, the synthesized CDK
 *   templates). No global setup, so a test here that reached for the local stack fails.
 * - local-stack: the global setup starts the same local stack `npm start` runs (DynamoDB Local,
 *   the SQS and SES emulators, the gateway, the pipeline) on free ports, once, and only when a
 *   test of this project is selected.
 * The dashboard's tests (test/e2e) are Playwright's (playwright.config.ts).
 */
const shared = {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": "<rootDir>/test/support/esbuild-transformer.cjs" },
  moduleFileExtensions: ["ts", "js", "mjs", "cjs", "json"],
};

export default {
  // A run-wide option: jest reads it here, not in a project.
  testTimeout: 30_000,
  projects: [
    { ...shared, displayName: "standalone", testMatch: ["<rootDir>/test/standalone/**/*.test.ts"] },
    {
      ...shared,
      displayName: "local-stack",
      testMatch: ["<rootDir>/test/local-stack/**/*.test.ts"],
      globalSetup: "<rootDir>/test/support/global-setup.ts",
      globalTeardown: "<rootDir>/test/support/global-teardown.ts",
    },
  ],
};
