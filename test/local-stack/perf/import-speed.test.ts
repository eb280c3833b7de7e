import { type Account, createSite, signupOwner } from "../../support/api";
import { formCountsItem } from "../../support/bookkeeping";
import { eventually } from "../../support/eventually";
import { insertForm } from "../../support/fixtures";
import { daysAgo, IMPORT_FIELDS as FIELDS, importFinished, netlifyCsv, postImport } from "../../support/imports";

/**
 * The import's speed bar (docs/performance.md, section 20). Here, in the performance run on a
 * stack of its own after the rest (test/run.mjs), because its 3,000 rows keep the local
 * bookkeeper (counts, search and filter entries: a few writes a row) busy for about a minute,
 * which the other tests would wait behind.
 */

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("import-speed");
  siteId = await createSite(owner);
});

describe("speed", () => {
  /**
   * The large export test's budget: 300 s for 10,000 rows, 30 ms a row (test/local-stack/http/export.test.ts's large export).
   * An import of a few thousand rows, from the request to its last pass, stays under it; its
   * counts then settle (docs/performance.md, "Importing").
   */
  const ROWS = 3_000;
  const MS_PER_ROW = 30;
  test(`${ROWS} rows import at most ${MS_PER_ROW} ms a row, their counts settled`, async () => {
    const form = await insertForm(owner, siteId, { name: "Speed", fields: FIELDS });
    const file = netlifyCsv(
      Array.from({ length: ROWS }, (_, i) => ({
        id: `speed-${i}`,
        createdAt: daysAgo(1 + (i % 60)),
        name: `Person ${i}`,
        email: `p${i}@example.com`,
        message: `Message number ${i}`,
      })),
    );
    const began = Date.now();
    const started = await postImport(owner.token, form.id, { file }, { gzip: true });
    expect(started.status).toBe(202);
    const answered = Date.now() - began;
    const done = await importFinished(owner, form.id, started.body.data.import.id, ROWS * MS_PER_ROW);
    const finished = Date.now() - began;
    expect(done).toMatchObject({ imported: ROWS, skipped: 0 });
    expect(finished / ROWS).toBeLessThanOrEqual(MS_PER_ROW);
    // The bookkeeper's part follows from the stream at its own pace (docs/performance.md, section 20).
    await eventually("form counts", async () => Number((await formCountsItem(form.id))?.inbox) === ROWS, {
      timeoutMs: 240_000,
    });
    const settled = Date.now() - began;
    console.log(
      `import of ${ROWS} rows: answered in ${answered} ms, finished in ${finished} ms (${(finished / ROWS).toFixed(2)} ms a row), counts settled in ${settled} ms`,
    );
  }, 420_000);
});
