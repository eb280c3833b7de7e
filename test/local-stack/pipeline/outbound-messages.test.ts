import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import { handler } from "../../../functions/consumer/process-queue";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { MAX_DELAY_SECONDS } from "../../../lib/aws/sqs";
import { CONSUMER_HANDLERS } from "../../../lib/consumer-handlers";
import { nowIso, randomBase62 } from "../../../lib/ids";
import { type DeliveryMessage, newMessageToken } from "../../../lib/outbound/messages";
import { processMessages } from "../../../lib/pipeline/batch";
import { keys } from "../../../lib/store/keys";
import { type Delivery, getDelivery } from "../../../lib/store/outbound-deliveries";
import { deleteEndpoint, type OutboundEndpoint } from "../../../lib/store/outbound-endpoints";
import { submissionItem } from "../../../lib/store/submissions";
import { createSite, signupOwner } from "../../support/api";
import { eventually } from "../../support/eventually";
import { insertForm } from "../../support/fixtures";
import { type Receiver, receiverPath, startReceiver, verifyDelivery } from "../../support/outbound-receiver";
import { makeSubmission } from "../../support/submissions";
import { pipelineBarrier } from "./support/barrier";
import { insertTestDelivery, insertTestEndpoint } from "./support/outbound";
import { internalSqsRecord, sqsEvent, sqsRecord, streamRecord } from "./support/records";

/**
 * The consumer's internal delivery messages (lib/outbound/messages.ts, lib/outbound/attempts.ts)
 * with real SQS event shapes, on deliveries written straight to DynamoDB Local: duplicates,
 * redeliveries, attempts in flight, runners that died, messages that arrive early. Next-attempt
 * messages these handlers send go to the test stack's real queue, whose consumer runs them.
 */

jest.setTimeout(60_000);

let receiver: Receiver;
let form: Awaited<ReturnType<typeof insertForm>>;
let errors: jest.Spied<typeof console.error>;

beforeAll(async () => {
  receiver = await startReceiver();
  const owner = await signupOwner("outbound-messages");
  form = await insertForm(owner, await createSite(owner));
});
afterAll(async () => receiver.close());
beforeEach(() => {
  errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());

const endpointAt = (path: string) => insertTestEndpoint(form, receiver.url(path));

/**
 * A stored submission whose form does not exist: the stack's own pipeline, which sees its
 * INSERT, finds the form gone and leaves it alone, so only these tests deliver it.
 */
async function storedSubmission() {
  const submission = makeSubmission(
    { id: `form_missing${randomBase62(10)}`, orgId: form.orgId, siteId: form.siteId },
    {
      data: { email: "grace@navy.example", note: randomBase62(12) },
    },
  );
  await db().send(new PutCommand({ TableName: tableName(), Item: submissionItem(submission) }));
  return submission;
}

async function delivery(endpoint: OutboundEndpoint, overrides: Partial<Delivery> = {}): Promise<Delivery> {
  const submission = await storedSubmission();
  return insertTestDelivery(endpoint, submission.id, 1, overrides);
}

const message = (d: Delivery, overrides: Partial<DeliveryMessage> = {}): DeliveryMessage => ({
  v: 1,
  kind: "delivery",
  deliveryId: d.id,
  attempt: d.attemptCount + 1,
  dueAt: nowIso(),
  token: newMessageToken(),
  ...overrides,
});
const record = (m: DeliveryMessage | Record<string, unknown>) => internalSqsRecord(m);
const until = (id: string, done: (d: Delivery) => boolean) =>
  eventually(`delivery ${id} getting there`, async () => {
    const d = await getDelivery(id);
    return d && done(d) ? d : undefined;
  });

describe("internal delivery messages in the consumer", () => {
  test("a delivery message runs its attempt: one signed POST, recorded as delivered", async () => {
    const path = receiverPath("msg");
    const endpoint = await endpointAt(path);
    const d = await delivery(endpoint);
    const result = await handler(sqsEvent([record(message(d))]));
    expect(result).toEqual({ batchItemFailures: [] });
    const [request] = receiver.requests(path);
    const event = verifyDelivery(endpoint.signingSecret, request as never);
    expect(event).toMatchObject({ type: "submission.created", data: { submissionId: d.submissionId, lead: d.lead } });
    expect(request?.headers["webhook-id"]).toBe(d.id);
    const stored = await getDelivery(d.id);
    expect(stored).toMatchObject({ status: "delivered", attemptCount: 1, nextAttemptAt: null });
    expect(stored?.leaseUntil).toBeUndefined();
    expect(errors).not.toHaveBeenCalled();
  });

  test("copies of one message, in one batch and redelivered later, send the attempt once", async () => {
    const path = receiverPath("dup");
    const endpoint = await endpointAt(path);
    const d = await delivery(endpoint);
    const m = message(d);
    const results = await Promise.all([handler(sqsEvent([record(m), record(m)])), handler(sqsEvent([record(m)]))]);
    expect(results).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    expect(await handler(sqsEvent([record(m)]))).toEqual({ batchItemFailures: [] });
    // Another copy with a different token (a duplicate next-attempt message) changes nothing either.
    expect(await handler(sqsEvent([record({ ...m, token: newMessageToken() })]))).toEqual({ batchItemFailures: [] });
    expect(receiver.requests(path)).toHaveLength(1);
    expect(await getDelivery(d.id)).toMatchObject({ status: "delivered", attemptCount: 1 });
  });

  test("a copy that finds the attempt in flight comes back later; nothing is sent", async () => {
    const path = receiverPath("inflight");
    const endpoint = await endpointAt(path);
    const d = await delivery(endpoint, { attemptCount: 1, claimToken: "other", leaseUntil: Date.now() + 60_000 });
    const r = record(message(d, { attempt: 1 }));
    expect(await handler(sqsEvent([r]))).toEqual({ batchItemFailures: [{ itemIdentifier: r.messageId }] });
    expect(receiver.requests(path)).toHaveLength(0);
    // Expected, not an error.
    expect(errors).not.toHaveBeenCalled();
  });

  test("an attempt whose runner died (lease expired) is recorded as interrupted and the next one runs", async () => {
    const path = receiverPath("died");
    const endpoint = await endpointAt(path);
    const d = await delivery(endpoint, {
      status: "pending",
      attemptCount: 1,
      finalAttempt: 3,
      claimToken: "dead-runner",
      leaseUntil: Date.now() - 1000,
    });
    expect(await handler(sqsEvent([record(message(d, { attempt: 1 }))]))).toEqual({ batchItemFailures: [] });
    const recovered = await getDelivery(d.id);
    expect(recovered).toMatchObject({ status: "retrying", attemptCount: 1 });
    expect(recovered?.attempts[0]).toMatchObject({
      number: 1,
      statusCode: null,
      durationMs: null,
      error: "the attempt was interrupted before its answer was recorded",
      nextAttemptAt: expect.any(String),
    });
    // Attempt 2 arrives through the real queue, about a second later (the test schedule).
    const done = await until(d.id, (x) => x.status === "delivered");
    expect(done.attempts.map((a) => [a.number, a.statusCode])).toEqual([
      [1, null],
      [2, 200],
    ]);
    expect(receiver.requests(path)).toHaveLength(1);
  });

  test("redelivered after recording but before queueing the next attempt: the recorder queues it, a stranger does not", async () => {
    const path = receiverPath("requeue");
    const endpoint = await endpointAt(path);
    const attempted = new Date(Date.now() - 5000).toISOString();
    const d = await delivery(endpoint, {
      status: "retrying",
      attemptCount: 1,
      finalAttempt: 2,
      claimToken: "recorder",
      attempts: [
        {
          number: 1,
          statusCode: 500,
          durationMs: 3,
          error: "HTTP 500",
          attemptedAt: attempted,
          nextAttemptAt: attempted,
          trigger: "automatic",
        },
      ],
      nextAttemptAt: attempted,
    });
    // A stranger's copy of attempt 1: already recorded by someone else, so nothing.
    expect(await handler(sqsEvent([record(message(d, { attempt: 1, token: "stranger" }))]))).toEqual({ batchItemFailures: [] });
    // Anything the stranger's copy queued (attempt 2 is due already) has been handled by now.
    await pipelineBarrier();
    expect(receiver.requests(path)).toHaveLength(0);
    // The recorder's own message, redelivered: it queues attempt 2, which the stack runs.
    expect(await handler(sqsEvent([record(message(d, { attempt: 1, token: "recorder" }))]))).toEqual({ batchItemFailures: [] });
    const done = await until(d.id, (x) => x.status === "delivered");
    expect(done.attemptCount).toBe(2);
    await pipelineBarrier();
    expect(receiver.requests(path)).toHaveLength(1);
  });

  test("a message that arrives before its attempt is due is sent on and finished; the attempt runs when due", async () => {
    const path = receiverPath("early");
    const endpoint = await endpointAt(path);
    const due = Date.now() + 3000;
    const d = await delivery(endpoint, { nextAttemptAt: new Date(due).toISOString() });
    expect(await handler(sqsEvent([record(message(d, { dueAt: new Date(due).toISOString() }))]))).toEqual({
      batchItemFailures: [],
    });
    expect(receiver.requests(path)).toHaveLength(0);
    expect(await getDelivery(d.id)).toMatchObject({ status: "pending", attemptCount: 0 });
    const [request] = await receiver.waitFor(path, 1, 15_000);
    expect(request?.receivedAt).toBeGreaterThanOrEqual(due - 50);
    await until(d.id, (x) => x.status === "delivered");
    // SQS delays a message 15 minutes at most: a retry hours away travels as a chain of hops.
    expect(MAX_DELAY_SECONDS).toBe(900);
  });

  test("stale messages (a later attempt already claimed, a finished delivery) do nothing", async () => {
    const path = receiverPath("stale");
    const endpoint = await endpointAt(path);
    const later = await delivery(endpoint, {
      status: "retrying",
      attemptCount: 3,
      finalAttempt: 5,
      nextAttemptAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const done = await delivery(endpoint, { status: "delivered", attemptCount: 1, deliveredAt: nowIso() });
    const failed = await delivery(endpoint, { status: "failed", attemptCount: 2, finalAttempt: 2 });
    const result = await handler(
      sqsEvent([
        record(message(later, { attempt: 2 })),
        record(message(done, { attempt: 1 })),
        record(message(done, { attempt: 2 })),
        record(message(failed, { attempt: 3 })),
        record(message({ ...done, id: `dlv_${randomBase62(22)}` }, { attempt: 1 })),
      ]),
    );
    expect(result).toEqual({ batchItemFailures: [] });
    expect(receiver.requests(path)).toHaveLength(0);
    expect(await getDelivery(later.id)).toMatchObject({ attemptCount: 3, status: "retrying" });
  });

  test("a deleted endpoint or submission ends the delivery as failed without sending", async () => {
    const path = receiverPath("ended");
    const endpoint = await endpointAt(path);
    const noSubmission = await delivery(endpoint);
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.submission(noSubmission.submissionId as string) }));
    const gone = await endpointAt(path);
    const noEndpoint = await delivery(gone);
    await deleteEndpoint(gone.formId, gone.id);
    const result = await handler(sqsEvent([record(message(noSubmission)), record(message(noEndpoint))]));
    expect(result).toEqual({ batchItemFailures: [] });
    expect(receiver.requests(path)).toHaveLength(0);
    expect(await getDelivery(noSubmission.id)).toMatchObject({
      status: "failed",
      lastError: "the submission was deleted",
      attemptCount: 0,
    });
    expect(await getDelivery(noEndpoint.id)).toMatchObject({
      status: "failed",
      lastError: "the endpoint was deleted",
      attemptCount: 0,
    });
  });

  test("a malformed internal message fails alone; stream records in the same batch are dispatched as before", async () => {
    const seen: string[] = [];
    const handlers = { fine: async (item: Record<string, unknown>) => void seen.push(String(item.pk)) };
    const bad = [
      record({ v: 1, kind: "delivery", deliveryId: "dlv_short", attempt: 1, dueAt: nowIso(), token: "t" }),
      record({ v: 2, kind: "delivery", deliveryId: `dlv_${randomBase62(22)}`, attempt: 1, dueAt: nowIso(), token: "t" }),
      record({ v: 1, kind: "mystery" }),
      record({ v: 1, kind: "delivery", deliveryId: `dlv_${randomBase62(22)}`, attempt: 0, dueAt: nowIso(), token: "t" }),
    ];
    const good = sqsRecord(JSON.stringify(streamRecord("INSERT", { pk: "A#1", sk: "A", type: "fine", kind: "not internal" })));
    const result = await processMessages([...bad, good], { records: handlers, messages: CONSUMER_HANDLERS.messages });
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(bad.map((r) => r.messageId).sort());
    expect(seen).toEqual(["A#1"]);
    const reasons = errors.mock.calls.map((call) => JSON.parse(String(call[0])).reason as string);
    expect(reasons.filter((r) => r.startsWith("the body is not a valid internal message"))).toHaveLength(bad.length);
  });

  test("the attribute decides the family: a delivery body without it is read as a stream record, and fails as one", async () => {
    const endpoint = await endpointAt(receiverPath("unmarked"));
    const d = await delivery(endpoint);
    const unmarked = sqsRecord(JSON.stringify(message(d)));
    const result = await processMessages([unmarked], CONSUMER_HANDLERS);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: unmarked.messageId }] });
    const reasons = errors.mock.calls.map((call) => JSON.parse(String(call[0])).reason as string);
    expect(reasons.some((r) => r.startsWith("the body is not a valid internal message"))).toBe(false);
    expect(await getDelivery(d.id)).toMatchObject({ attemptCount: 0 });
  });

  test("the delivery item is the one stored under its own key", async () => {
    const endpoint = await endpointAt(receiverPath("key"));
    const d = await delivery(endpoint);
    const raw = await db().send(new GetCommand({ TableName: tableName(), Key: keys.outboundDelivery(d.id) }));
    expect(raw.Item).toMatchObject({
      type: "outbound_delivery",
      gsi1pk: keys.outboundDeliveryIndexPartition(endpoint.id),
      ttl: expect.any(Number),
    });
    expect(raw.Item?.ttl).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);
  });
});
