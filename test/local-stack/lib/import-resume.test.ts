import { IMPORT_PARALLEL_WRITES, IMPORT_PASS_MS, runImportPass } from "../../../lib/import-job";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { formCountsItem } from "../../support/bookkeeping";
import { insertForm } from "../../support/fixtures";
import { IMPORT_FIELDS, importRows, storedImportJob, unqueuedImport } from "../../support/imports";
import { bookkeepingBarrier } from "../pipeline/support/barrier";

/**
 * An import stopped by its time budget and resumed (docs/importing.md, "The job"): a pass ends
 * when its time is up, the job's cursor says where, the next pass goes on from there, and a pass
 * that runs twice counts nothing twice.
 *
 * The passes run here, in the test's process, on an import the stack's consumer never runs
 * (test/support/imports.ts, unqueuedImport).
 */

const ROWS = 60;

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("import-resume");
  siteId = await createSite(owner);
});

/** A pass whose time budget is over before it writes anything: it writes one group and stops. */
const lateStart = () => Date.now() - IMPORT_PASS_MS - 1;

test("a pass stopped by its time budget leaves the cursor partway; the next goes on; a pass run twice counts each row once", async () => {
  const form = await insertForm(owner, siteId, { name: "Resumed import", fields: IMPORT_FIELDS });
  const job = await unqueuedImport(owner, form, importRows(ROWS));

  expect(await runImportPass(job, lateStart())).toBe("continued");
  const partway = await storedImportJob(job);
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
  expect(await storedImportJob(job)).toEqual(partway);

  // The next pass, from the stored job: the rest of the file.
  expect(await runImportPass(partway)).toBe("finished");
  const done = await storedImportJob(job);
  expect(done).toMatchObject({ status: "finished", cursor: ROWS, passes: 2, imported: ROWS, duplicates: 0, skipped: 0 });
  expect(done.finishedAt).not.toBeNull();
  // And again: nothing changes.
  expect(await runImportPass(partway)).toBe("repeated");
  expect(await storedImportJob(job)).toEqual(done);

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
