import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import type { Context, SQSEvent } from "aws-lambda";
import { handler } from "../../../functions/consumer/process-queue";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { type SendEmailCommand, ses } from "../../../lib/aws/ses";
import { nowIso, randomBase62 } from "../../../lib/ids";
import { newMessageToken } from "../../../lib/outbound/messages";
import type { Delivery } from "../../../lib/store/outbound-deliveries";
import type { OutboundEndpoint } from "../../../lib/store/outbound-endpoints";
import { submissionItem } from "../../../lib/store/submissions";
import { createSite, signupOwner } from "../../support/api";
import { captureStdout, invokeAndRead, metricValue, stopCapture, testContext } from "../../support/emf";
import { insertForm } from "../../support/fixtures";
import { type Receiver, receiverPath, startReceiver } from "../../support/outbound-receiver";
import { makeSubmission } from "../../support/submissions";
import { emailsTo, HOT_LEAD, recipient } from "./support/emails";
import { hiddenForm, hiddenSubmission } from "./support/hidden";
import { insertTestDelivery, insertTestEndpoint } from "./support/outbound";
import { internalSqsRecord, sqsEvent } from "./support/records";

/**
 * The consumer's metrics (docs/metrics.md) read from what one real invocation writes: the
 * consumer runs in this process with real SQS event shapes against the test stack's DynamoDB
 * Local, SES emulator and a receiver on loopback. SES's failure is injected on the client's
 * `send` (SES cannot be made to fail for real); everything else is real.
 */
jest.setTimeout(60_000);

type Consumer = (event: SQSEvent, context: Context) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;
const consumer = handler as unknown as Consumer;

let receiver: Receiver;
let form: Awaited<ReturnType<typeof insertForm>>;
let errors: jest.Spied<typeof console.error>;
beforeAll(async () => {
  captureStdout();
  receiver = await startReceiver();
  const owner = await signupOwner("consumer-metrics");
  form = await insertForm(owner, await createSite(owner));
});
afterAll(async () => {
  stopCapture();
  await receiver.close();
});
beforeEach(() => {
  // Failed messages are logged as errors: expected here.
  errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());

const lead = () => ({ ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` });

describe("notifications", () => {
  test("sent: one per recipient; the consumer's line is route queue, status 0 failures", async () => {
    const [to, cc] = [recipient("metrics"), recipient("metrics-cc")];
    const { record } = await hiddenSubmission(await hiddenForm([to, cc]), lead());
    const { result, written } = await invokeAndRead(consumer, sqsEvent([record]), testContext("inlet-consumer"));
    expect(result).toEqual({ batchItemFailures: [] });
    expect(await emailsTo(to)).toHaveLength(1);
    expect(metricValue(written.emf, "Notifications", { outcome: "sent" })).toEqual([2]);
    expect(written.done).toMatchObject({ route: "queue", status: 0, coldStart: expect.any(Boolean) });
    // The log group names the function and CloudWatch stamps the time: neither is repeated on the line.
    expect(written.done).not.toHaveProperty("function");
    expect(written.done).not.toHaveProperty("time");
    expect(written.done.dynamoCalls).toBeGreaterThan(0);
    // No address, no field value in the metrics or the line.
    expect(written.raw).not.toContain(to);
    expect(written.raw).not.toContain("Lovelace");
  });

  test("failed: counted per recipient, and the line's status is the number of failed messages", async () => {
    const to = recipient("metrics-fail");
    const { record } = await hiddenSubmission(await hiddenForm([to]), lead());
    const client = ses();
    const send = jest.spyOn(client, "send") as unknown as jest.Spied<(command: SendEmailCommand) => Promise<unknown>>;
    send.mockRejectedValueOnce(Object.assign(new Error("Maximum sending rate exceeded."), { name: "TooManyRequestsException" }));
    try {
      const { result, written } = await invokeAndRead(consumer, sqsEvent([record]));
      expect(result.batchItemFailures).toHaveLength(1);
      expect(metricValue(written.emf, "Notifications", { outcome: "failed" })).toEqual([1]);
      expect(metricValue(written.emf, "Notifications", { outcome: "sent" })).toBeUndefined();
      expect(written.done).toMatchObject({ route: "queue", status: 1 });
    } finally {
      send.mockRestore();
    }
  });
});

describe("outbound deliveries, by outcome", () => {
  const endpointAt = (path: string) => insertTestEndpoint(form, receiver.url(path));

  /** A delivery of a stored submission whose form does not exist (the stack's pipeline leaves it alone). */
  async function delivery(endpoint: OutboundEndpoint, finalAttempt: number): Promise<Delivery> {
    const submission = makeSubmission(
      { id: `form_missing${randomBase62(10)}`, orgId: form.orgId, siteId: form.siteId },
      { data: { note: randomBase62(12) } },
    );
    await db().send(new PutCommand({ TableName: tableName(), Item: submissionItem(submission) }));
    return insertTestDelivery(endpoint, submission.id, finalAttempt);
  }

  const attempt = (d: Delivery) =>
    invokeAndRead(
      consumer,
      sqsEvent([
        internalSqsRecord({ v: 1, kind: "delivery", deliveryId: d.id, attempt: 1, dueAt: nowIso(), token: newMessageToken() }),
      ]),
    );

  test.each([
    ["delivered", 200, 5],
    ["retried", 500, 5],
    ["gave_up", 500, 1],
    ["endpoint_disabled", 410, 5],
  ] as const)("%s (the receiver answers %i, attempt 1 of %i)", async (outcome, status, finalAttempt) => {
    const path = receiverPath(`metrics-${outcome}`);
    receiver.script(path, [{ status }]);
    const d = await delivery(await endpointAt(path), finalAttempt);
    const { result, written } = await attempt(d);
    expect(result).toEqual({ batchItemFailures: [] });
    expect(receiver.requests(path)).toHaveLength(1);
    expect(metricValue(written.emf, "OutboundDeliveries", { outcome })).toEqual([1]);
    // Nothing else of the family in this invocation, and no endpoint address in the output.
    const family = written.emf.filter((document) => "OutboundDeliveries" in document);
    expect(family).toHaveLength(1);
    expect(written.raw).not.toContain(receiver.url(path));
  });
});
