import { processSubmission } from "../../../lib/pipeline/process-submission";
import { keys } from "../../../lib/store/keys";
import { getSubmissionConsistent } from "../../../lib/store/submissions";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { countsSettle } from "../../support/bookkeeping";
import { formspreeCsv, importFinished, postImport } from "../../support/imports";
import { submitTo } from "../../support/submissions";
import { pipelineBarrier } from "./support/barrier";
import { emailsTo, HOT_LEAD, notifyingForm, rawItem, recipient, waitForEmails } from "./support/emails";

/**
 * An imported submission is never notified, qualified or delivered (docs/importing.md): the
 * pipe's filter passes none (the first guard), the consumer skips one that reaches it anyway (a
 * release, a redelivery: the second), and unflagging one puts no release marker (the third).
 * Each guard is tested on its own, beside a webhook submission to the same form that is notified,
 * so the test would see an email if a guard let one through.
 */

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("import-pipeline");
  siteId = await createSite(owner, "Import pipeline site");
});

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

test("the pipe's filter: imported rows send no email and get no lead; a webhook submission to the same form does", async () => {
  const to = recipient("import");
  const { formId, hook } = await notifyingForm(owner, siteId, [to]);
  const started = await postImport(owner.token, formId, {
    file: formspreeCsv([
      { date: daysAgo(2), email: "ada@analytical-engines.example.com", name: "Ada", message: HOT_LEAD.message },
      { date: daysAgo(1), email: "bob@example.com", name: "Bob", message: "Second" },
    ]),
  });
  expect(started.status).toBe(202);
  const done = await importFinished(owner, formId, started.body.data.import.id);
  expect(done.imported).toBe(2);

  // The control: a webhook submission is notified, after the imported ones were stored.
  const live = await submitTo(hook, { ...HOT_LEAD, message: `${HOT_LEAD.message} live` });
  const emails = await waitForEmails(to);
  await pipelineBarrier();
  expect((await emailsTo(to)).map((e) => e.subject)).toEqual(emails.map((e) => e.subject));
  expect(emails).toHaveLength(1);
  expect(emails[0]?.subject).toContain(live.referenceId);

  const list = await api("GET", `/api/v1/forms/${formId}/submissions?limit=10`, { token: owner.token });
  const imported = list.body.data.submissions.filter((s: { imported: unknown }) => s.imported !== null);
  expect(imported).toHaveLength(2);
  for (const s of imported) expect(s.lead).toBeNull();
  expect(list.body.data.submissions.find((s: { id: string }) => s.id === live.submissionId)?.lead).not.toBeNull();
});

test("the consumer's guard: an imported submission handed to it anyway is left alone", async () => {
  const to = recipient("import-guard");
  const { formId } = await notifyingForm(owner, siteId, [to]);
  const started = await postImport(owner.token, formId, {
    file: formspreeCsv([{ date: daysAgo(3), email: "cy@example.com", name: "Cy", message: "Guarded" }]),
  });
  await importFinished(owner, formId, started.body.data.import.id);
  const list = await api("GET", `/api/v1/forms/${formId}/submissions?limit=10`, { token: owner.token });
  const id = list.body.data.submissions[0].id as string;

  await processSubmission(id, { kind: "insert" });
  await processSubmission(id, { kind: "release", releasedAt: new Date().toISOString() });
  expect((await getSubmissionConsistent(id))?.lead).toBeUndefined();
  await pipelineBarrier();
  expect(await emailsTo(to)).toEqual([]);
});

test("unflagging an imported spam submission moves its counts and puts no release marker", async () => {
  const to = recipient("import-unflag");
  const { formId } = await notifyingForm(owner, siteId, [to]);
  const file = ["id,submitted_at,email,message,spam", `b-1,${daysAgo(1)},spam@example.com,cheap pills,true`].join("\n");
  const started = await postImport(owner.token, formId, { file, source: "basin" });
  const done = await importFinished(owner, formId, started.body.data.import.id);
  expect(done).toMatchObject({ imported: 1, spam: 1 });
  const list = await api("GET", `/api/v1/forms/${formId}/submissions?limit=10&spam=true`, { token: owner.token });
  const id = list.body.data.submissions[0].id as string;
  await countsSettle(formId, { inbox: 0, spam: 1 });

  const unflag = await api("PUT", `/api/v1/submissions/${id}`, { token: owner.token, body: { isSpam: false } });
  expect(unflag.status).toBe(200);
  expect(unflag.body.data.submission.spam.isSpam).toBe(false);
  expect(unflag.body.data.submission.releasedAt).toBeNull();
  expect(await rawItem(keys.release(id))).toBeUndefined();
  await countsSettle(formId, { inbox: 1, spam: 0 });
  await pipelineBarrier();
  expect(await emailsTo(to)).toEqual([]);
  expect((await getSubmissionConsistent(id))?.lead).toBeUndefined();
});
