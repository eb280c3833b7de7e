import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, jest } from "@jest/globals";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { runImportPass } from "../../../lib/import-job";
import { expiryOf, type Retention } from "../../../lib/retention";
import type { Form } from "../../../lib/store/forms";
import { storeImportRows } from "../../../lib/store/import-files";
import type { ImportJob, ImportRow } from "../../../lib/store/imports";
import { keys } from "../../../lib/store/keys";
import { type Account, createSite, signupOwner } from "../../support/api";
import { insertForm } from "../../support/fixtures";
import { IMPORT_FIELDS, importJobOf, importRows } from "../../support/imports";

/**
 * An import and a retention change of the same form (docs/importing.md, "Retention"). The change's
 * job re-dates the form's submissions oldest first; imported rows keep their original times, so a
 * row written after the job passed its date would keep the expiry of the retention the import
 * started with. Each pass reads the form's retention when it starts, and again when its writes
 * are done: rows written under an older one are re-dated.
 *
 * The passes run here, in the test's process, from a job that is not in the table (so the stack's
 * consumer does not run it too: each pass's record is refused, "repeated"). A change is written
 * to the form item as a change leaves it once its job has gone past these rows' dates: the new
 * retention and the job's generation, and no job item (no job of the stack's re-dates them).
 */

const KEPT: Retention = { inboxDays: null, spamDays: 30 };
const SHORTER: Retention = { inboxDays: 90, spamDays: 30 };
const ROWS = 30;

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("import-retention");
  siteId = await createSite(owner);
});
afterEach(() => {
  jest.restoreAllMocks();
});

/** The import's job (never written: see above) and its rows, stored for it. */
async function importOf(form: Form): Promise<{ job: ImportJob; rows: ImportRow[] }> {
  const rows = importRows(ROWS);
  const job = importJobOf(owner, form, rows);
  await storeImportRows(job.orgId, job.formId, job.id, rows);
  return { job, rows };
}

/** The form as a retention change leaves it (lib/store/retention-jobs.ts, updateFormRetention), its job's own item aside. */
const changeRetention = (formId: string, retention: Retention, generation: number) =>
  new UpdateCommand({
    TableName: tableName(),
    Key: keys.form(formId),
    UpdateExpression: "SET #retention = :retention, retentionJob = :job",
    ExpressionAttributeNames: { "#retention": "retention" },
    ExpressionAttributeValues: {
      ":retention": retention,
      ":job": {
        generation,
        status: "finished",
        examined: 0,
        updated: 0,
        startedAt: new Date(generation).toISOString(),
        finishedAt: null,
      },
    },
  });

async function stored(rows: ImportRow[]) {
  return Promise.all(
    rows.map(async (row) => {
      const item = (
        await db().send(new GetCommand({ TableName: tableName(), Key: keys.submission(row.id), ConsistentRead: true }))
      ).Item;
      return { id: row.id, ttl: item?.ttl, retentionGeneration: item?.retentionGeneration, imported: item?.imported?.line };
    }),
  );
}

const datedBy = (rows: ImportRow[], retention: Retention, generation: number | undefined) =>
  rows.map((row) => ({
    id: row.id,
    ttl: expiryOf(row.createdAt, false, retention),
    retentionGeneration: generation,
    imported: row.line,
  }));

test("a retention change stored while a pass writes: the pass re-dates the rows it wrote under the old one", async () => {
  const form = await insertForm(owner, siteId, { name: "Changed mid-pass", fields: IMPORT_FIELDS, retention: KEPT });
  const { job, rows } = await importOf(form);
  const generation = Date.now();
  // Once the pass's first row is on its way (the pass read the old retention before it), the
  // change is stored. Not a fault: the real write, at the moment that matters.
  const client = db();
  const real = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  let changed = false;
  jest.spyOn(client, "send").mockImplementation((async (command: unknown) => {
    if (!changed && command instanceof PutCommand && command.input.Item?.imported) {
      changed = true;
      await real(changeRetention(form.id, SHORTER, generation));
    }
    return real(command);
  }) as never);
  expect(await runImportPass(job)).toBe("repeated");
  expect(changed).toBe(true);
  expect(await stored(rows)).toEqual(datedBy(rows, SHORTER, generation));
});

test("a pass that starts after a change dates its rows by the new retention, marked with its generation", async () => {
  const form = await insertForm(owner, siteId, { name: "Changed before", fields: IMPORT_FIELDS, retention: KEPT });
  const { job, rows } = await importOf(form);
  const generation = Date.now();
  await db().send(changeRetention(form.id, SHORTER, generation));
  expect(await runImportPass(job)).toBe("repeated");
  expect(await stored(rows)).toEqual(datedBy(rows, SHORTER, generation));
});

test("a pass that repeats after a change re-dates the rows its earlier attempt wrote", async () => {
  const form = await insertForm(owner, siteId, { name: "Changed between attempts", fields: IMPORT_FIELDS, retention: KEPT });
  const { job, rows } = await importOf(form);
  await runImportPass(job);
  expect(await stored(rows)).toEqual(datedBy(rows, KEPT, undefined));
  const generation = Date.now();
  await db().send(changeRetention(form.id, SHORTER, generation));
  // The same pass again (its record was never kept): every row is found as the import's own.
  await runImportPass(job);
  expect(await stored(rows)).toEqual(datedBy(rows, SHORTER, generation));
});
