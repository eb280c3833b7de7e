import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { newId, newTimeOrderedId } from "../../../lib/ids";
import { IMPORT_PARALLEL_WRITES, IMPORT_PASS_MS, runImportPass } from "../../../lib/import-job";
import { storeImportRows } from "../../../lib/store/import-files";
import { type ImportJob, importJobItem, toImportJob } from "../../../lib/store/imports";
import { keys } from "../../../lib/store/keys";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { formCountsItem } from "../../support/bookkeeping";
import { insertForm } from "../../support/fixtures";
import { daysAgo, IMPORT_FIELDS } from "../../support/imports";
import { bookkeepingBarrier } from "../pipeline/support/barrier";

/**
 * An import stopped by its time budget and resumed (docs/importing.md, "The job"): a pass ends
 * when its time is up, the job's cursor says where, the next pass goes on from there, and a pass
 * that runs twice counts nothing twice.
 *
 * The passes run here, in the test's process, on a job item written without its `type`: the
 * stream's filter (infra/intake-filter.ts) passes no change of it to the consumer, so the stack
 * never runs a pass of its own, and each pass's record on the job (lib/store/imports.ts) is the
 * real conditional one.
 */

const ROWS = 60;

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("import-resume");
  siteId = await createSite(owner);
});

async function startedImport(formId: string, orgId: string): Promise<ImportJob> {
  const job: ImportJob = {
    id: newTimeOrderedId("import", Date.now()),
    formId,
    orgId,
    siteId,
    status: "running",
    source: "csv",
    fileName: "leads.csv",
    rows: ROWS,
    imported: 0,
    duplicates: 0,
    spam: 0,
    skipped: 0,
    problems: [],
    createdBy: owner.userId,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    total: ROWS,
    cursor: 0,
    passes: 0,
    retention: { inboxDays: null, spamDays: 30 },
    referencePrefix: "RESU",
  };
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    line: i + 2,
    id: newId("submission"),
    createdAt: daysAgo(1 + (i % 20)),
    data: { email: `row${i}@example.com`, name: `Row ${i}` },
    sourceSpam: false,
  }));
  await storeImportRows(orgId, formId, job.id, rows);
  const { type: _unqueued, ...item } = importJobItem(job);
  await db().send(new PutCommand({ TableName: tableName(), Item: item }));
  return job;
}

async function storedJob(job: ImportJob): Promise<ImportJob> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.importJob(job.formId, job.id), ConsistentRead: true }),
  );
  if (!out.Item) throw new Error(`import ${job.id} is not stored`);
  return toImportJob(out.Item);
}

/** A pass whose time budget is over before it writes anything: it writes one group and stops. */
const lateStart = () => Date.now() - IMPORT_PASS_MS - 1;

test("a pass stopped by its time budget leaves the cursor partway; the next goes on; a pass run twice counts each row once", async () => {
  const form = await insertForm(owner, siteId, { name: "Resumed import", fields: IMPORT_FIELDS });
  const job = await startedImport(form.id, form.orgId);

  expect(await runImportPass(job, lateStart())).toBe("continued");
  const partway = await storedJob(job);
  expect(partway).toMatchObject({
    status: "running",
    cursor: IMPORT_PARALLEL_WRITES,
    passes: 1,
    imported: IMPORT_PARALLEL_WRITES,
    duplicates: 0,
    finishedAt: null,
  });

  // The first pass again, as a queue redelivers it: its rows are its own, its record is refused.
  expect(await runImportPass(job, lateStart())).toBe("repeated");
  expect(await storedJob(job)).toEqual(partway);

  // The next pass, from the stored job: the rest of the file.
  expect(await runImportPass(partway)).toBe("finished");
  const done = await storedJob(job);
  expect(done).toMatchObject({ status: "finished", cursor: ROWS, passes: 2, imported: ROWS, duplicates: 0, skipped: 0 });
  expect(done.finishedAt).not.toBeNull();
  // And again: nothing changes.
  expect(await runImportPass(partway)).toBe("repeated");
  expect(await storedJob(job)).toEqual(done);

  const res = await api("GET", `/api/v1/forms/${form.id}/submissions?limit=100&spam=all`, { token: owner.token });
  expect(res.status).toBe(200);
  const stored = res.body.data.submissions as { imported: { importId: string; line: number } }[];
  expect(stored.map((s) => s.imported.line).sort((a, b) => a - b)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 2));
  expect(new Set(stored.map((s) => s.imported.importId))).toEqual(new Set([job.id]));

  // Counted once each: the bookkeeper has handled every row's INSERT once the barrier passes.
  await bookkeepingBarrier();
  const counts = await formCountsItem(form.id);
  expect({ inbox: Number(counts?.inbox), spam: Number(counts?.spam ?? 0) }).toEqual({ inbox: ROWS, spam: 0 });
}, 120_000);
