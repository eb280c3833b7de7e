import { randomUUID } from "node:crypto";
import { jest } from "@jest/globals";
import { handler } from "../../../functions/consumer/process-queue";
import { type SendEmailCommand, ses } from "../../../lib/aws/ses";
import { readAction } from "../../../lib/store/actions";
import type { Form } from "../../../lib/store/forms";
import { type Account, signupOwner } from "../../support/api";
import { insertForm } from "../../support/fixtures";
import { newSite } from "../../support/spam-helpers";
import { emailsTo } from "./support/emails";
import { hiddenSubmission, redelivered } from "./support/hidden";
import { sqsEvent } from "./support/records";

/**
 * A confirmation's own claim (`ACTION#<submissionId>#confirm`) under the queue's redeliveries:
 * the consumer handler run in this process with real SQS event shapes against the test stack's
 * table and SES emulator, a failure SES cannot be made to produce injected on the client's `send`.
 * The submissions are hidden from the stack's own pipeline (support/hidden.ts).
 */

type Send = (command: SendEmailCommand) => Promise<unknown>;
let sendSpy: jest.Spied<Send>;
let errors: jest.Spied<typeof console.error>;
beforeEach(() => {
  sendSpy = jest.spyOn(ses(), "send") as unknown as jest.Spied<Send>;
  errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  sendSpy.mockRestore();
  errors.mockRestore();
});

let owner: Account;
let form: Form;
beforeAll(async () => {
  owner = await signupOwner("confirm-retries");
  const siteId = await newSite(owner, { domain: "example.com" });
  form = await insertForm(owner, siteId, {
    fields: { email: { label: "Email", type: "email", required: true, order: 1 } },
    settings: {
      notifyEmails: [],
      confirmation: { enabled: true, subject: "Got it ({reference})", message: "Thanks.", senderName: null, replyTo: null },
    },
  });
});

/** A submission from the site's page to confirm to a fresh address, and its stream record. */
async function fromSite() {
  const to = `retry-${randomUUID()}@example.net`;
  const { submission, record } = await hiddenSubmission(
    form,
    { email: to },
    {
      metadata: {
        source: "generic",
        userAgent: "Mozilla/5.0",
        referer: "https://example.com/contact",
        ip: "203.0.113.9",
        droppedFiles: [],
        ignoredFields: [],
      },
    },
  );
  return { to, submission, record };
}

test("SES fails once: the message is retried and the confirmation goes out once, whatever the redeliveries", async () => {
  const { to, submission, record } = await fromSite();
  sendSpy.mockRejectedValueOnce(Object.assign(new Error("Maximum sending rate exceeded."), { name: "TooManyRequestsException" }));
  expect(await handler(sqsEvent([record]))).toEqual({ batchItemFailures: [{ itemIdentifier: record.messageId }] });
  expect(await emailsTo(to)).toEqual([]);
  // The claim is given back; the day's marker names this submission, so its retry may take it.
  expect(await readAction(submission.id, "confirm")).toBeUndefined();

  expect(await handler(sqsEvent([redelivered(record)]))).toEqual({ batchItemFailures: [] });
  expect(await emailsTo(to)).toHaveLength(1);
  expect(await readAction(submission.id, "confirm")).toMatchObject({ status: "done", note: "sent" });
  expect(await handler(sqsEvent([redelivered(record, 3)]))).toEqual({ batchItemFailures: [] });
  expect(await emailsTo(to)).toHaveLength(1);
  expect(sendSpy).toHaveBeenCalledTimes(2);
});

test("the same message handled by two consumers at once: one confirmation", async () => {
  const { to, submission, record } = await fromSite();
  const results = await Promise.all([handler(sqsEvent([record])), handler(sqsEvent([redelivered(record)]))]);
  // The one that found the claim taken retries later; its retry finds it done.
  const retried = results.flatMap((r) => r.batchItemFailures);
  for (const _ of retried) expect(await handler(sqsEvent([redelivered(record, 3)]))).toEqual({ batchItemFailures: [] });
  expect(await emailsTo(to)).toHaveLength(1);
  expect(await readAction(submission.id, "confirm")).toMatchObject({ status: "done", note: "sent" });
});
