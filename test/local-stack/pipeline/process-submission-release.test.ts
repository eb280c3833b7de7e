import { randomUUID } from "node:crypto";
import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import { handler } from "../../../functions/consumer/process-queue";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { ses } from "../../../lib/aws/ses";
import { nowIso } from "../../../lib/ids";
import { keys } from "../../../lib/store/keys";
import { setSpamState } from "../../../lib/store/moderation";
import { releaseItem, withdrawRelease } from "../../../lib/store/releases";
import { getSubmissionConsistent } from "../../../lib/store/submissions";
import { api, createSite, signupOwner } from "../../support/api";
import { storedItem, submitTo } from "../../support/submissions";
import { emailsTo, HOT_LEAD, notifyingForm, rawItem, recipient, waitForEmails } from "./support/emails";
import { hiddenForm, hiddenSubmission } from "./support/hidden";
import { sqsEvent, sqsRecord, streamRecord } from "./support/records";

/**
 * Releases from spam at the edges the HTTP tests (notify.test.ts) cannot time: a release that
 * reaches the consumer after the submission was flagged again, a release of a submission already
 * processed, a submission flagged before the consumer reached it. The consumer runs in this
 * process; where the test needs the stack's own pipeline to pick a release up, it lets it.
 */
const setItem = (key: { pk: string; sk: string }, expression: string, values: Record<string, unknown>) =>
  db().send(
    new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: expression, ExpressionAttributeValues: values }),
  );

/** A release marker the stack's pipeline does not see: inserted under another type, then renamed (a MODIFY). */
async function quietMarker(submissionId: string, releasedAt: string) {
  const item = releaseItem(submissionId, releasedAt);
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...item, type: "release-test" } }));
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.release(submissionId),
      UpdateExpression: "SET #type = :release",
      ExpressionAttributeNames: { "#type": "type" },
      ExpressionAttributeValues: { ":release": "release" },
    }),
  );
  return sqsRecord(JSON.stringify(streamRecord("INSERT", item)));
}

let sendSpy: jest.Spied<(...args: unknown[]) => unknown>;
beforeEach(() => {
  sendSpy = jest.spyOn(ses(), "send") as unknown as jest.Spied<(...args: unknown[]) => unknown>;
});
afterEach(() => sendSpy.mockRestore());

test("a release that finds the submission flagged again is withdrawn; the next unflag releases it, once", async () => {
  const owner = await signupOwner("release");
  const siteId = await createSite(owner);
  const to = recipient();
  const { hook } = await notifyingForm(owner, siteId, [to]);
  const spam = await submitTo(hook, { ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}`, _hp: "bot" });

  // As if a moderator unflagged it and flagged it again before its release reached the consumer.
  const firstRelease = nowIso();
  await setItem(keys.submission(spam.submissionId), "SET releasedAt = :at", { ":at": firstRelease });
  const release = await quietMarker(spam.submissionId, firstRelease);

  expect(await handler(sqsEvent([release]))).toEqual({ batchItemFailures: [] });
  expect(sendSpy).not.toHaveBeenCalled();
  expect(await rawItem(keys.release(spam.submissionId))).toBeUndefined();
  expect((await storedItem(spam.submissionId))?.lead).toBeUndefined();

  // Unflagged again: the marker is inserted anew, and the stack's pipeline sends the email.
  const unflag = await api("PUT", `/api/v1/submissions/${spam.submissionId}`, { token: owner.token, body: { isSpam: false } });
  expect(unflag.body.data.submission.releasedAt).toBe(firstRelease);
  const emails = await waitForEmails(to);
  expect(emails).toHaveLength(1);
  expect(emails[0]?.subject).toContain(spam.referenceId);
});

test("withdrawing loses to an unflag that came in between: the marker stays and the consumer goes on", async () => {
  const form = await hiddenForm([]);
  const { submission } = await hiddenSubmission(form, { email: "x@example.com" });
  await quietMarker(submission.id, nowIso());
  // Not spam (unflagged) at the moment of the withdrawal: refused.
  expect(await withdrawRelease(submission.id)).toBe(false);
  expect(await rawItem(keys.release(submission.id))).toMatchObject({ type: "release" });
  // Spam and never taken up: withdrawn.
  await setItem(keys.submission(submission.id), "SET isSpam = :true", { ":true": true });
  expect(await withdrawRelease(submission.id)).toBe(true);
  expect(await rawItem(keys.release(submission.id))).toBeUndefined();
});

test("a release of a submission already processed sends nothing twice and keeps its lead", async () => {
  const to = recipient();
  const form = await hiddenForm([to]);
  const { submission, record } = await hiddenSubmission(form, { ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` });
  expect(await handler(sqsEvent([record]))).toEqual({ batchItemFailures: [] });
  const lead = (await storedItem(submission.id))?.lead;
  expect(lead).toMatchObject({ grade: "hot" });

  const release = sqsRecord(JSON.stringify(streamRecord("INSERT", releaseItem(submission.id, nowIso()))));
  expect(await handler(sqsEvent([release]))).toEqual({ batchItemFailures: [] });
  expect(await emailsTo(to)).toHaveLength(1);
  expect((await storedItem(submission.id))?.lead).toEqual(lead);
  expect(sendSpy).toHaveBeenCalledTimes(1);
});

test("a submission flagged before the consumer reached it is skipped, and released by a later unflag", async () => {
  const to = recipient();
  const form = await hiddenForm([to]);
  const { submission, record } = await hiddenSubmission(form, { ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` });
  await setItem(keys.submission(submission.id), "SET isSpam = :true", { ":true": true });

  expect(await handler(sqsEvent([record]))).toEqual({ batchItemFailures: [] });
  expect(sendSpy).not.toHaveBeenCalled();
  expect((await storedItem(submission.id))?.lead).toBeUndefined();

  // The moderator unflags it (lib/submissions.ts calls this): the release marker's INSERT reaches
  // the stack's own pipeline, which processes it.
  const stored = await getSubmissionConsistent(submission.id);
  const saved = (await setSpamState(stored!, false, nowIso()))?.submission;
  expect(saved?.isSpam).toBe(false);
  // Intake did not store it as spam: no releasedAt, but released all the same.
  expect(saved?.releasedAt).toBeUndefined();
  const emails = await waitForEmails(to);
  expect(emails).toHaveLength(1);
  expect(emails[0]?.subject).toContain(submission.referenceId);
});
