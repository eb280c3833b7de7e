import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { db, tableName } from "../../lib/aws/dynamodb";
import { keys } from "../../lib/store/keys";
import { type Submission, submissionItem } from "../../lib/store/submissions";
import { bookkeepingBarrier } from "../local-stack/pipeline/support/barrier";
import { streamRecord } from "../local-stack/pipeline/support/records";
import { eventually } from "./eventually";

/**
 * Helpers of the bookkeeper's tests (and of the bench, so no jest import here): table stream records as Lambda's DynamoDB event source
 * mapping delivers them (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html), for a
 * submission stored or removed, and the counters as stored (read strongly consistent).
 */

/**
 * One record of a Lambda DynamoDB Streams event for `item`: the record the pipe puts in a queue
 * message is the same shape (stream view NEW_AND_OLD_IMAGES), so it is that one.
 */
export const lambdaRecord = (eventName: "INSERT" | "MODIFY" | "REMOVE", item: Record<string, unknown>): DynamoDBRecord =>
  streamRecord(eventName, item) as DynamoDBRecord;

/** The INSERT of a stored submission (its item as intake writes it). */
export const storedRecord = (submission: Submission) => lambdaRecord("INSERT", submissionItem(submission));

/** The REMOVE of a submission, `isSpam` as it was when removed. */
export const removedRecord = (submission: Submission, isSpam = submission.spam.isSpam) =>
  lambdaRecord("REMOVE", { ...submissionItem(submission), isSpam });

export const streamEvent = (records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });

async function item(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined> {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
}

/** A form's counts as stored (undefined: no item). */
export async function formCountsItem(formId: string) {
  return item(keys.formCounts(formId));
}

/** A webhook's counts as stored. */
export async function webhookCountsItem(siteId: string, webhookId: string) {
  return item(keys.webhookCounts(siteId, webhookId));
}

/** A site's day as stored. */
export async function siteDayItem(siteId: string, day: string) {
  return item(keys.siteDay(siteId, day));
}

/**
 * Waits until the stack's bookkeeper has brought the form's counts to `expected`: up to 20 s, as
 * another file's seeding can keep the shared bookkeeper busy for seconds (within a test's 30 s).
 */
export async function countsSettle(formId: string, expected: { inbox: number; spam: number }, timeoutMs = 20_000) {
  return eventually(
    `form ${formId} counts ${JSON.stringify(expected)}`,
    async () => {
      const found = await formCountsItem(formId);
      const now = { inbox: Number(found?.inbox ?? 0), spam: Number(found?.spam ?? 0) };
      return now.inbox === expected.inbox && now.spam === expected.spam ? now : undefined;
    },
    { timeoutMs },
  );
}

/**
 * A webhook's submissionCount as the API answers it: what its own item held before the
 * bookkeeper (0 for any webhook a test creates) plus its counts item.
 */
export async function webhookReceived(webhookId: string): Promise<number> {
  const hook = await item(keys.webhook(webhookId));
  const counts = hook ? await item(keys.webhookCounts(String(hook.siteId), webhookId)) : undefined;
  return Number(hook?.submissionCount ?? 0) + Number(counts?.submissionCount ?? 0);
}

/**
 * Waits until the stack's bookkeeper has bookkept every record written before the call (a
 * bookkeeping barrier), then checks the webhook's count: exactly `expected`, none counted twice,
 * none missing. The barrier waits as long as the bookkeeper is behind (another file's seeding can
 * keep it busy for seconds), where a fixed timeout on the count would fail a correct count.
 */
export async function receivedSettles(webhookId: string, expected: number): Promise<void> {
  await bookkeepingBarrier();
  const counted = await webhookReceived(webhookId);
  if (counted !== expected) throw new Error(`webhook ${webhookId} counted ${counted} after the barrier, not ${expected}`);
}
