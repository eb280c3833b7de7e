import { collectDigest } from "../../../lib/digests/collect";
import { newTimeOrderedId } from "../../../lib/ids";
import { putImportedSubmission } from "../../../lib/store/imports";
import type { NotifiedMember } from "../../../lib/store/member-notifications";
import { type Account, createSite, signupOwner } from "../../support/api";
import { formCountsItem } from "../../support/bookkeeping";
import { insertForm } from "../../support/fixtures";
import { IMPORT_FIELDS } from "../../support/imports";
import { makeSubmission, putSubmissions } from "../../support/submissions";
import { pipelineBarrier } from "../pipeline/support/barrier";

/**
 * A digest and imported submissions (docs/importing.md, "Imported submissions"; docs/notifications.md,
 * "What a digest says"): rows an import dates inside a period no digest has covered yet are past
 * leads, never among the digest's leads or grades, though its counts hold them, as the daily
 * counts it reads do. collectDigest runs here on the stack's table, once the pipeline and the
 * bookkeeper have handled both rows.
 */

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("digest-imported");
  siteId = await createSite(owner);
});

test("an imported row of the period is counted in the digest's new submissions, never one of its leads", async () => {
  const form = await insertForm(owner, siteId, { name: "Imported into", fields: IMPORT_FIELDS });
  const now = Date.now();
  // The imported row is the newer: were it a lead, it would head the newest.
  const live = makeSubmission(form, {
    createdAt: new Date(now - 120_000).toISOString(),
    data: { name: "Live Lead", email: "live@example.com" },
  });
  const past = makeSubmission(form, {
    webhookId: newTimeOrderedId("import", now),
    createdAt: new Date(now - 60_000).toISOString(),
    data: { name: "Past Lead", email: "past@example.com" },
    metadata: { source: "import", userAgent: null, referer: null, ip: null, droppedFiles: [], ignoredFields: [] },
  });
  await putSubmissions([live]);
  const put = await putImportedSubmission(past, { importId: past.webhookId, source: "csv", line: 2 }, null);
  expect(put.outcome).toBe("stored");
  // The live one qualified (a cold lead: a name and an address), both counted.
  await pipelineBarrier();
  expect(Number((await formCountsItem(form.id))?.inbox)).toBe(2);

  const member: NotifiedMember = {
    userId: owner.userId,
    orgId: owner.orgId,
    email: owner.email,
    notifications: { organization: "daily", forms: {}, digestHour: 9, digestWeekday: 1, updatedAt: new Date(now).toISOString() },
  };
  const period = { from: live.createdAt.slice(0, 10), to: past.createdAt.slice(0, 10) };
  const digest = await collectDigest(member, "daily", period, "https://inlet.example");
  expect(digest.totals.inbox).toBe(2);
  expect(digest.forms.map((f) => [f.formId, f.inbox])).toEqual([[form.id, 2]]);
  expect(digest.newest.map((l) => l.submissionId)).toEqual([live.id]);
  expect(digest.hottest).toEqual([]);
  expect(digest.grades).toEqual({ hot: 0, warm: 0, cold: 1, ungraded: 0, counted: 1 });
});
