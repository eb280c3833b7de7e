import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import { handler } from "../../../functions/consumer/process-queue";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { nowIso } from "../../../lib/ids";
import { deliveryIdFor } from "../../../lib/outbound/payload";
import { keys } from "../../../lib/store/keys";
import { getDelivery } from "../../../lib/store/outbound-deliveries";
import type { OutboundEndpoint } from "../../../lib/store/outbound-endpoints";
import { releaseItem } from "../../../lib/store/releases";
import { type Receiver, receiverPath, startReceiver, verifyDelivery } from "../../support/outbound-receiver";
import { pipelineBarrier } from "./support/barrier";
import { hiddenForm, hiddenSubmission } from "./support/hidden";
import { insertTestEndpoint } from "./support/outbound";
import { sqsEvent, sqsRecord, streamRecord } from "./support/records";

/**
 * An outbound endpoint receives the events that happen after it exists (docs/outbound-webhooks.md,
 * "Which events"): a submission stored before the endpoint was created, whose message reaches the
 * consumer only after (a backlog, a retry), is not sent to it. The submission is stored where the
 * stack's own pipeline does not see it (./support/hidden.ts), so this test decides when the
 * consumer takes it up; the first attempts it queues run on the test stack's consumer.
 */

jest.setTimeout(60_000);

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => receiver.close());

/** Waits until the clock has moved on, so two writes in a row never share a millisecond. */
async function tick() {
  const now = Date.now();
  while (Date.now() === now) await new Promise((resolve) => setImmediate(resolve));
}

async function endpointAt(form: Awaited<ReturnType<typeof hiddenForm>>, name: string) {
  await tick();
  const path = receiverPath(name);
  const endpoint = await insertTestEndpoint(form, receiver.url(path));
  await tick();
  return { endpoint, path };
}

const deliveryOf = (submissionId: string, endpoint: OutboundEndpoint) => getDelivery(deliveryIdFor(submissionId, endpoint.id));

test("a submission stored before an endpoint existed and processed after is not sent to it; an older endpoint gets it", async () => {
  const form = await hiddenForm([]);
  const before = await endpointAt(form, "since-before");
  const { submission, record } = await hiddenSubmission(form, { email: "ada@analytical-engines.com", message: "Hello" });
  // Created after the submission was stored, before the consumer reached it.
  const after = await endpointAt(form, "since-after");
  expect(after.endpoint.createdAt > submission.createdAt).toBe(true);

  expect(await handler(sqsEvent([record]))).toEqual({ batchItemFailures: [] });

  const [arrived] = await receiver.waitFor(before.path, 1);
  expect(verifyDelivery(before.endpoint.signingSecret, arrived as never)).toMatchObject({
    type: "submission.created",
    data: { submissionId: submission.id },
  });
  expect(await deliveryOf(submission.id, before.endpoint)).toMatchObject({ submissionId: submission.id });
  expect(await deliveryOf(submission.id, after.endpoint)).toBeUndefined();
  // And nothing is on its way to it: what the consumer queued has been handled.
  await pipelineBarrier();
  expect(receiver.requests(after.path)).toEqual([]);

  // The same message again (a redelivery) does not send it either.
  expect(await handler(sqsEvent([sqsRecord(record.body)]))).toEqual({ batchItemFailures: [] });
  expect(await deliveryOf(submission.id, after.endpoint)).toBeUndefined();
});

test("a release from spam is an event of its own: endpoints that existed when it was released receive it", async () => {
  const form = await hiddenForm([]);
  const { submission } = await hiddenSubmission(form, { email: "grace@navy.example", message: "Released" });
  const beforeRelease = await endpointAt(form, "release-before");
  const releasedAt = nowIso();
  const afterRelease = await endpointAt(form, "release-after");

  // The marker a moderator's unflag puts, written so the stack's pipeline does not see its INSERT.
  const item = releaseItem(submission.id, releasedAt);
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...item, type: "release-test" } }));
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.release(submission.id),
      UpdateExpression: "SET #type = :release",
      ExpressionAttributeNames: { "#type": "type" },
      ExpressionAttributeValues: { ":release": "release" },
    }),
  );
  const release = sqsRecord(JSON.stringify(streamRecord("INSERT", item)));
  expect(await handler(sqsEvent([release]))).toEqual({ batchItemFailures: [] });

  const [arrived] = await receiver.waitFor(beforeRelease.path, 1);
  expect(verifyDelivery(beforeRelease.endpoint.signingSecret, arrived as never)).toMatchObject({
    data: { submissionId: submission.id },
  });
  expect(await deliveryOf(submission.id, afterRelease.endpoint)).toBeUndefined();
});
