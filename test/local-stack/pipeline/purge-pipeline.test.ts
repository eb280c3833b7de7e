import { randomUUID } from "node:crypto";
import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { PURGE_PASS_SIZE } from "../../../lib/purge";
import { keys } from "../../../lib/store/keys";
import { GSI1 } from "../../../lib/store/table-definition";

/**
 * The whole local pipeline, end to end, in the running stack: an item written to the table →
 * the stream follower (the pipe's filters) → the intake queue → the queue poller (Lambda's batch
 * contract) → the consumer → runPurgePass, pass after pass (each pass bumps the job item, whose
 * MODIFY record queues the next one). The stack runs with PURGE_GRACE_SECONDS=0.
 *
 * Three passes (PURGE_PASS_SIZE is 500) and no more: every row written and deleted here is also a
 * record for the stack's bookkeeper, which the tests running alongside wait on.
 */
const SUBMISSIONS = 1100;

async function writeAll(items: Record<string, unknown>[]): Promise<void> {
  const TableName = tableName();
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  const write = async (chunk: Record<string, unknown>[]) => {
    let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length > 0) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [TableName]: pending } }));
      pending = (out.UnprocessedItems?.[TableName] ?? []) as typeof pending;
    }
  };
  for (let i = 0; i < chunks.length; i += 8) await Promise.all(chunks.slice(i, i + 8).map(write));
}

async function countSubmissions(formId: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: GSI1,
        KeyConditionExpression: "gsi1pk = :pk",
        ExpressionAttributeValues: { ":pk": keys.submissionIndexPartition(formId) },
        Select: "COUNT",
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}

const getItem = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key }))).Item;

test(`a purge job in the table deletes its form and ${SUBMISSIONS} submissions through the local pipeline`, async () => {
  const formId = `frm_${randomUUID()}`;
  const siteId = `site_${randomUUID()}`;
  const orgId = `org_${randomUUID()}`;
  const createdAt = new Date().toISOString();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.form(formId), ...keys.formIndex(siteId, createdAt, formId), type: "form", id: formId, orgId, siteId },
    }),
  );
  // Spam submissions: stored, but the intake filters keep them out of the queue, so this test
  // does not flood the shared pipeline with thousands of submissions to qualify and notify.
  await writeAll(
    Array.from({ length: SUBMISSIONS }, (_, i) => {
      const id = `sub_${randomUUID()}`;
      const at = new Date(Date.parse(createdAt) + i).toISOString();
      return {
        ...keys.submission(id),
        ...keys.submissionIndex(formId, at, id),
        type: "submission",
        id,
        formId,
        isSpam: true,
        createdAt: at,
      };
    }),
  );
  expect(await countSubmissions(formId)).toBe(SUBMISSIONS);

  // The job as lib/store/webhooks.ts deleteArchivedWebhook writes it.
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.purgeJob(formId), type: "purge", formId, orgId, siteId, reason: "test", passes: 0, deleted: 0, createdAt },
    }),
  );

  let passesSeen = 0;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await getItem(keys.purgeJob(formId));
    passesSeen = Math.max(passesSeen, Number(job?.passes ?? 0));
    if (!job && !(await getItem(keys.form(formId)))) break;
    if (Date.now() > deadline) throw new Error(`purge not finished in time (passes seen: ${passesSeen})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(await countSubmissions(formId)).toBe(0);
  // Resumable: more than one pass, each one queued by the previous pass's MODIFY record.
  expect(SUBMISSIONS / PURGE_PASS_SIZE).toBeGreaterThan(2);
  expect(passesSeen).toBeGreaterThanOrEqual(2);
}, 90_000);
