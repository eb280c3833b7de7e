import { randomUUID } from "node:crypto";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import { handler } from "../../../functions/consumer/process-queue";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { type SendEmailCommand, ses } from "../../../lib/aws/ses";
import { CLAIM_STALE_AFTER_MS } from "../../../lib/pipeline/once";
import { readAction } from "../../../lib/store/actions";
import { keys } from "../../../lib/store/keys";
import { storedItem } from "../../support/submissions";
import { emailsTo, HOT_LEAD, recipient } from "./support/emails";
import { hiddenForm, hiddenSubmission, redelivered } from "./support/hidden";
import { sqsEvent } from "./support/records";

/**
 * The consumer handler (functions/consumer/process-queue.ts) run in this process with real SQS
 * event shapes, against the test stack's DynamoDB Local and SES emulator. Faults SES cannot be
 * made to produce for real are injected on the SES client's `send`; everything else is real.
 * The submissions are hidden from the stack's own pipeline (support/hidden.ts), so every email
 * counted here was sent by the invocations below.
 */

type Send = (command: SendEmailCommand) => Promise<unknown>;
const subjectOf = (command: SendEmailCommand) => command.input.Content?.Simple?.Subject?.Data ?? "";
const sentFor = (emails: { subject: string }[], s: { submission: { referenceId: string } }) =>
  emails.filter((e) => e.subject.includes(s.submission.referenceId)).length;
const failures = (result: { batchItemFailures: { itemIdentifier: string }[] }) =>
  result.batchItemFailures.map((f) => f.itemIdentifier).sort();

let sendSpy: jest.Spied<Send>;
/** The client's own send, to pass calls through to the SES emulator. */
let realSend: Send;
let errors: jest.Spied<typeof console.error>;
beforeEach(() => {
  const client = ses();
  realSend = client.send.bind(client) as unknown as Send;
  sendSpy = jest.spyOn(client, "send") as unknown as jest.Spied<Send>;
  // The consumer logs failed messages as errors: expected here.
  errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  sendSpy.mockRestore();
  errors.mockRestore();
});

const lead = (tag: string) => ({ ...HOT_LEAD, message: `${HOT_LEAD.message} ${tag}` });

describe("fault: SES fails once", () => {
  test("the message fails, the claim is released, the redelivery sends the email once", async () => {
    const to = recipient();
    const form = await hiddenForm([to]);
    const { submission, record } = await hiddenSubmission(form, lead(randomUUID()));
    sendSpy.mockRejectedValueOnce(
      Object.assign(new Error("Maximum sending rate exceeded."), { name: "TooManyRequestsException", $fault: "client" }),
    );

    expect(await handler(sqsEvent([record]))).toEqual({ batchItemFailures: [{ itemIdentifier: record.messageId }] });
    expect(sendSpy).toHaveBeenCalledTimes(1);
    expect(await emailsTo(to)).toEqual([]);
    // Qualification is not undone by the failed email; the email's claim is given back.
    expect((await storedItem(submission.id))?.lead).toMatchObject({ grade: "hot", score: 85 });
    expect(await readAction(submission.id, "notify")).toBeUndefined();

    // SQS delivers the message again after the visibility timeout.
    expect(await handler(sqsEvent([redelivered(record)]))).toEqual({ batchItemFailures: [] });
    const emails = await emailsTo(to);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toContain(submission.referenceId);
    expect(await readAction(submission.id, "notify")).toMatchObject({ status: "done" });

    // A duplicate delivery (at-least-once queue) sends nothing more.
    expect(await handler(sqsEvent([redelivered(record, 3)]))).toEqual({ batchItemFailures: [] });
    expect(await emailsTo(to)).toHaveLength(1);
    expect(sendSpy).toHaveBeenCalledTimes(2);
  });
});

describe("fault: the consumer fails in the middle of a batch", () => {
  test("one record throws: only it is reported, redelivered and finished; the others are not redone", async () => {
    const to = recipient();
    const form = await hiddenForm([to]);
    const batch = await Promise.all([1, 2, 3].map(() => hiddenSubmission(form, lead(randomUUID()))));
    const [a, b, c] = batch as [(typeof batch)[number], (typeof batch)[number], (typeof batch)[number]];
    // B's email fails; the others go through to the emulator.
    sendSpy.mockImplementation(async (command) => {
      if (subjectOf(command).includes(b.submission.referenceId)) throw new Error("connection reset by peer");
      return realSend(command);
    });

    const first = await handler(sqsEvent(batch.map((s) => s.record)));
    expect(failures(first)).toEqual([b.record.messageId]);
    const afterFirst = await emailsTo(to);
    expect([a, b, c].map((s) => sentFor(afterFirst, s))).toEqual([1, 0, 1]);
    expect(await readAction(a.submission.id, "notify")).toMatchObject({ status: "done" });
    expect(await readAction(b.submission.id, "notify")).toBeUndefined();

    // The poller deletes A and C; B comes back alone, and SES works again.
    sendSpy.mockImplementation(realSend);
    expect(await handler(sqsEvent([redelivered(b.record)]))).toEqual({ batchItemFailures: [] });
    // Even if the whole batch came back (a duplicate delivery), A and C are not redone.
    expect(await handler(sqsEvent(batch.map((s) => redelivered(s.record, 3))))).toEqual({ batchItemFailures: [] });

    const emails = await emailsTo(to);
    expect(batch.map((s) => sentFor(emails, s))).toEqual([1, 1, 1]);
    expect(emails).toHaveLength(3);
    for (const s of batch) expect((await storedItem(s.submission.id))?.lead?.grade).toBe("hot");
  });

  test("the invocation dies mid-batch (a timeout): the whole batch returns, finished records are skipped, the orphaned claim is taken over once stale", async () => {
    const to = recipient();
    const form = await hiddenForm([to]);
    const batch = await Promise.all([1, 2, 3].map(() => hiddenSubmission(form, lead(randomUUID()))));
    const [a, b, c] = batch as [(typeof batch)[number], (typeof batch)[number], (typeof batch)[number]];
    // B's email call never returns: the invocation hangs until Lambda stops it at its timeout.
    sendSpy.mockImplementation((command) =>
      subjectOf(command).includes(b.submission.referenceId) ? new Promise(() => undefined) : realSend(command),
    );
    const outcome = await Promise.race([
      handler(sqsEvent(batch.map((s) => s.record))),
      new Promise<"timed out">((resolve) => setTimeout(() => resolve("timed out"), 3_000)),
    ]);
    // A timed-out invocation deletes nothing (the poller's contract): all three come back.
    expect(outcome).toBe("timed out");
    const afterTimeout = await emailsTo(to);
    expect([a, b, c].map((s) => sentFor(afterTimeout, s))).toEqual([1, 0, 1]);
    expect(await readAction(b.submission.id, "notify")).toMatchObject({ status: "started" });

    sendSpy.mockImplementation(realSend);
    // Redelivered while B's claim is still fresh: A and C are done and skipped, B waits.
    const second = await handler(sqsEvent(batch.map((s) => redelivered(s.record))));
    expect(failures(second)).toEqual([b.record.messageId]);
    expect(await emailsTo(to)).toHaveLength(2);

    // By the next delivery the claim is older than the consumer's timeout: taken over, sent once.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.action(b.submission.id, "notify"),
        UpdateExpression: "SET startedAt = startedAt - :age",
        ExpressionAttributeValues: { ":age": CLAIM_STALE_AFTER_MS + 1_000 },
      }),
    );
    expect(await handler(sqsEvent([redelivered(b.record, 3)]))).toEqual({ batchItemFailures: [] });
    const emails = await emailsTo(to);
    expect(batch.map((s) => sentFor(emails, s))).toEqual([1, 1, 1]);
    expect(await readAction(b.submission.id, "notify")).toMatchObject({ status: "done" });
  });

  test("the same submission twice in one batch: one email; the other message waits, then finds it done", async () => {
    const to = recipient();
    const form = await hiddenForm([to]);
    const { submission, record } = await hiddenSubmission(form, lead(randomUUID()));
    const twin = { ...record, messageId: randomUUID() };
    const result = await handler(sqsEvent([record, twin]));
    // Both ran concurrently: one claimed and sent, the other found a fresh claim and is retried.
    expect(result.batchItemFailures).toHaveLength(1);
    expect(await emailsTo(to)).toHaveLength(1);
    const retried = result.batchItemFailures[0]?.itemIdentifier === twin.messageId ? twin : record;
    expect(await handler(sqsEvent([redelivered(retried)]))).toEqual({ batchItemFailures: [] });
    expect(await emailsTo(to)).toHaveLength(1);
    expect((await emailsTo(to))[0]?.subject).toContain(submission.referenceId);
  });
});
