/**
 * `npm run backfill:filters`: puts the triage filter entries of the submissions stored before
 * the filters existed (lib/store/filter-backfill.ts; docs/operations.md, "Upgrading to the
 * triage filters"). Run it once after deploying that version, with credentials that may Scan and
 * BatchWriteItem the table:
 *
 *   TABLE_NAME=<the stack's TableName output> AWS_REGION=<region> npm run backfill:filters
 *
 * Without TABLE_NAME it works on the running local stack (`npm start`), as `npm run seed` does.
 * Safe to run again: every write is an idempotent put.
 */
import { parseLocalConfig } from "../../lib/config";
import { LOCAL_CREDENTIALS } from "../local/emulators";
import { localTableEnv, runningLocalStack, stackFile } from "../local/stack-file";

if (!process.env.TABLE_NAME) {
  const dataDir = parseLocalConfig(process.env).DATA_DIR;
  const info = runningLocalStack(dataDir);
  if (!info) {
    console.error(
      `Set TABLE_NAME (and AWS_REGION) for a deployed table, or start the local stack (\`npm start\`): ${stackFile(dataDir)} is missing.`,
    );
    process.exit(1);
  }
  Object.assign(process.env, localTableEnv(info, LOCAL_CREDENTIALS));
}

const { backfillFilterEntries } = await import("../../lib/store/filter-backfill");
let last = 0;
const done = await backfillFilterEntries({
  onPage: (p) => {
    if (Date.now() - last < 2000) return;
    last = Date.now();
    console.log(`… ${p.scanned} items read, ${p.submissions} submissions, ${p.entries} entries put`);
  },
});
console.log(`Done: ${done.scanned} items read, ${done.submissions} submissions, ${done.entries} filter entries put.`);
