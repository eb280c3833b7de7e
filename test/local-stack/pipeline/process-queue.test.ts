import { randomUUID } from "node:crypto";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import { handler } from "../../../functions/consumer/process-queue";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { CONSUMER_HANDLERS, RECORD_HANDLERS } from "../../../lib/consumer-handlers";
import { processMessages } from "../../../lib/pipeline/batch";
import { retryLater } from "../../../lib/queue-message";
import { keys } from "../../../lib/store/keys";
import { sqsEvent, sqsRecord, streamRecord } from "./support/records";

/**
 * The consumer handler with real SQS event shapes whose bodies are stream records as the pipe
 * sends them. Purge jobs run against DynamoDB Local; none of these items passes the intake
 * filters, so the local stack's own pipeline leaves them alone.
 */
const purgeJob = (formId: string, createdAt: string) => ({
  ...keys.purgeJob(formId),
  type: "purge",
  formId,
  orgId: "org_test",
  siteId: "site_test",
  reason: "test",
  passes: 0,
  deleted: 0,
  createdAt,
});
const body = (record: Record<string, unknown>) => JSON.stringify(record);

let errors: jest.Spied<typeof console.error>;
beforeEach(() => {
  errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());
const errorLines = () => errors.mock.calls.map((call) => JSON.parse(String(call[0])) as Record<string, unknown>);

describe("the intake consumer", () => {
  test("a batch of good records reports no failure", async () => {
    const formId = `frm_${randomUUID()}`;
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.form(formId), type: "form", id: formId } }));
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    const result = await handler(sqsEvent([sqsRecord(body(streamRecord("INSERT", purgeJob(formId, hourAgo))))]));
    expect(result).toEqual({ batchItemFailures: [] });
    // The last pass of a purge (no submission left, grace period over) deletes the form.
    const form = await db().send(new GetCommand({ TableName: tableName(), Key: keys.form(formId) }));
    expect(form.Item).toBeUndefined();
    expect(errors).not.toHaveBeenCalled();
  });

  test("fails exactly the records that failed, each for its own reason", async () => {
    const doneForm = `frm_${randomUUID()}`;
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    const good = sqsRecord(body(streamRecord("MODIFY", purgeJob(doneForm, hourAgo))));
    const notDue = sqsRecord(body(streamRecord("INSERT", purgeJob(`frm_${randomUUID()}`, new Date().toISOString()))));
    const unknownType = sqsRecord(body(streamRecord("INSERT", { pk: "X#1", sk: "X", type: "mystery" })));
    const prototypeType = sqsRecord(body(streamRecord("INSERT", { pk: "X#2", sk: "X", type: "constructor" })));
    const noType = sqsRecord(body(streamRecord("INSERT", { pk: "X#3", sk: "X" })));
    const removed = sqsRecord(body(streamRecord("REMOVE", purgeJob(doneForm, hourAgo))));
    const notJson = sqsRecord("{not json");
    const notARecord = sqsRecord(JSON.stringify({ hello: "world" }));
    const badJob = sqsRecord(body(streamRecord("INSERT", { ...purgeJob("x", hourAgo), formId: undefined })));
    const records = [good, notDue, unknownType, prototypeType, noType, removed, notJson, notARecord, badJob];

    const result = await handler(sqsEvent(records));

    const failed = result.batchItemFailures.map((f) => f.itemIdentifier).sort();
    expect(failed).toEqual(
      records
        .filter((r) => r !== good)
        .map((r) => r.messageId)
        .sort(),
    );
    // A purge that must wait is expected: retried, logged at info, not as an error.
    const errorIds = errorLines().map((line) => line.messageId);
    expect(errorIds).not.toContain(notDue.messageId);
    for (const record of [unknownType, prototypeType, noType, removed, notJson, notARecord, badJob]) {
      expect(errorIds).toContain(record.messageId);
    }
    expect(errorLines().find((line) => line.messageId === unknownType.messageId)).toMatchObject({
      level: "error",
      reason: 'no handler for item type "mystery"',
    });
  });

  test("an item type is one registry entry away", async () => {
    const seen: unknown[] = [];
    const handlers = {
      ...RECORD_HANDLERS,
      submission: async (item: Record<string, unknown>) => {
        seen.push(item.pk);
        if (item.pk === "SUB#later") return retryLater("not yet");
      },
    };
    const now = sqsRecord(body(streamRecord("INSERT", { pk: "SUB#now", sk: "SUB", type: "submission", isSpam: false })));
    const later = sqsRecord(body(streamRecord("INSERT", { pk: "SUB#later", sk: "SUB", type: "submission", isSpam: false })));
    const result = await processMessages([now, later], { ...CONSUMER_HANDLERS, records: handlers });
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: later.messageId }] });
    expect(seen.sort()).toEqual(["SUB#later", "SUB#now"]);
    expect(errors).not.toHaveBeenCalled();
  });

  test("a handler that throws fails its record only; the rest of the batch is done", async () => {
    const handlers = {
      boom: async () => {
        throw new Error("kaput");
      },
      fine: async () => undefined,
    };
    const boom = sqsRecord(body(streamRecord("INSERT", { pk: "A#1", sk: "A", type: "boom" })));
    const fine = sqsRecord(body(streamRecord("INSERT", { pk: "A#2", sk: "A", type: "fine" })));
    expect(await processMessages([boom, fine], { ...CONSUMER_HANDLERS, records: handlers })).toEqual({
      batchItemFailures: [{ itemIdentifier: boom.messageId }],
    });
    expect(errorLines()).toEqual([expect.objectContaining({ level: "error", messageId: boom.messageId, errorMessage: "kaput" })]);
  });
});
