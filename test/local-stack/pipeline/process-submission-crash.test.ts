import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { keys } from "../../../lib/store/keys";
import { submissionItem } from "../../../lib/store/submissions";
import { eventually } from "../../support/eventually";
import { makeSubmission } from "../../support/submissions";
import { pipelineBarrier } from "./support/barrier";
import { emailsTo, FIELDS, HOT_LEAD, recipient, type SentEmail } from "./support/emails";
import { call, type StackProcess, startStackProcess } from "./support/stack-process";

/**
 * Fault: the process running the local stack is killed (SIGKILL, DynamoDB Local's JVM with it)
 * between a submission's write and its hand-off to the consumer, and again under load. After a
 * restart on the same data folder, the stream follower resumes from its saved position
 * (infra/local/stream-position.ts): the submission's email still goes out, once, and every
 * counter the bookkeeper keeps (the form's, the webhook's, the site's days) counts each stored
 * submission exactly once. A whole second stack runs for this, in its own process group; its SES
 * emulator lives in that process, so each start has an empty one.
 */
let stack: StackProcess | undefined;
afterAll(async () => {
  await stack?.kill();
});

/** The submissions stored in a form (its index partition, read whole: a test's few dozen). */
async function storedIn(formId: string): Promise<{ isSpam: boolean; webhookId: string; createdAt: string }[]> {
  const out = await stack!.db.send(
    new QueryCommand({
      TableName: stack!.info.tableName,
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.submissionIndexPartition(formId) },
    }),
  );
  if (out.LastEvaluatedKey) throw new Error("more submissions than one page");
  return (out.Items ?? []) as { isSpam: boolean; webhookId: string; createdAt: string }[];
}

/** The counters as stored, and as they must be from the submissions stored, for one form fed by one webhook. */
async function counters(site: string, formId: string, webhookId: string) {
  const stored = await storedIn(formId);
  const form = await read(keys.formCounts(formId));
  const webhook = await read(keys.webhookCounts(site, webhookId));
  const days = [...new Set(stored.map((s) => s.createdAt.slice(0, 10)))];
  const dayItems = await Promise.all(days.map((day) => read(keys.siteDay(site, day))));
  return {
    counted: {
      form: { inbox: form?.inbox, spam: form?.spam },
      webhook: webhook?.submissionCount,
      days: dayItems.map((d) => ({ inbox: d?.inbox, spam: d?.spam })),
    },
    expected: {
      form: { inbox: stored.filter((s) => !s.isSpam).length, spam: stored.filter((s) => s.isSpam).length },
      webhook: stored.filter((s) => s.webhookId === webhookId).length,
      days: days.map((day) => {
        const of = stored.filter((s) => s.createdAt.startsWith(day));
        return { inbox: of.filter((s) => !s.isSpam).length, spam: of.filter((s) => s.isSpam).length };
      }),
    },
  };
}

async function read(key: { pk: string; sk: string }) {
  return (await stack!.db.send(new GetCommand({ TableName: stack!.info.tableName, Key: key, ConsistentRead: true }))).Item;
}

/** Everything the restarted stack's pipeline had to do (the follower sends again what was not finished) is done. */
const drained = () => pipelineBarrier({ db: stack!.db, tableName: stack!.info.tableName });

const emailsFor = async (to: string, referenceId: string): Promise<SentEmail[]> =>
  (await emailsTo(to, stack!.info.sesEndpoint)).filter((e) => e.subject.includes(referenceId));

test("killed between the write and the hand-off, and under load: after restart the email still arrives once, and every counter is exact", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-crash-"));
  stack = await startStackProcess(dataDir);

  // An owner, a site, a form that notifies `to`, and a server-to-server webhook feeding it.
  const signup = await call(stack, "POST", "/api/v1/auth/signup", {
    body: {
      email: `crash-${randomUUID()}@example.com`,
      password: "correct horse battery",
      name: "Crash",
      organizationName: "Crash Co",
    },
  });
  expect(signup.status).toBe(201);
  const token = signup.body.data.token as string;
  const orgId = signup.body.data.organization.id as string;
  const site = await call(stack, "POST", "/api/v1/sites", { token, body: { name: "Crash site" } });
  const siteId = site.body.data.site.id as string;
  const to = recipient("crash");
  const form = await call(stack, "POST", `/api/v1/sites/${siteId}/forms`, {
    token,
    body: { name: "Crash form", fields: FIELDS, settings: { notifyEmails: [to] } },
  });
  expect(form.status).toBe(201);
  const formId = form.body.data.form.id as string;
  const hook = await call(stack, "POST", `/api/v1/sites/${siteId}/webhooks`, {
    token,
    body: { name: "Crash hook", source: "partner_automation", formId },
  });
  expect(hook.status).toBe(201);
  const intake = `/api/v1/incoming/${hook.body.data.id}?key=${encodeURIComponent(hook.body.data.secretKey)}`;

  // 1. Killed the moment intake answers: the record may be unread, queued in memory (lost with
  //    the process), being handled, or done. Whatever it was, after the restart exactly one
  //    email exists: sent before the kill (its claim was marked done before the kill), or after.
  const posted = await call(stack, "POST", intake, { body: { ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` } });
  expect(posted.status).toBe(200);
  await stack.kill();
  const killedAt = Date.now();
  stack = await startStackProcess(dataDir);
  const first = posted.body as { submissionId: string; referenceId: string };
  // A claim orphaned mid-send waits out the consumer's timeout, then the queue's visibility
  // timeout (180 s): the slow path, taken only if the kill hit the email call itself.
  const claim = await eventually(
    "the first submission's email claim is done",
    async () => {
      const item = await read(keys.action(first.submissionId, "notify"));
      return item?.status === "done" ? item : undefined;
    },
    { timeoutMs: 240_000, intervalMs: 200 },
  );
  const sentBeforeKill = Number(claim.doneAt) < killedAt;
  await drained();
  expect((await emailsFor(to, first.referenceId)).length).toBe(sentBeforeKill ? 0 : 1);
  expect((await read(keys.submission(first.submissionId)))?.lead).toMatchObject({ grade: "hot" });

  // 2. Deterministic: the stack's Node process is frozen (nothing reads the stream), the
  //    submission is written as intake writes it, and the whole group is killed. The follower
  //    never saw the record; only its position in the data folder can bring it back.
  stack.pause();
  const submission = makeSubmission(
    { id: formId, orgId, siteId },
    {
      webhookId: hook.body.data.id as string,
      referenceId: `CRASH-${randomUUID().slice(0, 8)}`,
      data: { ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` },
    },
  );
  await stack.db.send(
    new PutCommand({
      TableName: stack.info.tableName,
      Item: submissionItem(submission),
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
  await stack.kill();
  stack = await startStackProcess(dataDir);
  const emails = await eventually(
    "the email after the restart",
    async () => {
      const found = await emailsFor(to, submission.referenceId);
      return found.length > 0 ? found : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  expect(emails).toHaveLength(1);
  await drained();
  expect(await emailsFor(to, submission.referenceId)).toHaveLength(1);
  expect(await read(keys.action(submission.id, "notify"))).toMatchObject({ status: "done" });
  expect((await read(keys.submission(submission.id)))?.lead).toMatchObject({ grade: "hot", score: 85 });

  // 3. Under load: 24 submissions in flight, the stack killed once some are answered. Whatever
  //    was stored (answered or not) is counted once after the restart: a bookkeeper batch
  //    interrupted by the kill is handed over again and its checkpoint skips what it applied.
  const webhookId = hook.body.data.id as string;
  const load = Array.from({ length: 24 }, (_, i) =>
    call(stack as StackProcess, "POST", intake, { body: { ...HOT_LEAD, message: `load ${i} ${randomUUID()}` } }).then(
      (res) => res.status,
      () => "cut off",
    ),
  );
  let answered = 0;
  for (const posted of load) void posted.then((status) => (answered += status === 200 ? 1 : 0));
  await eventually("some of the load answered", () => answered >= 6, { timeoutMs: 60_000, intervalMs: 10 });
  await stack.kill();
  const statuses = await Promise.all(load);
  stack = await startStackProcess(dataDir);
  await drained();
  const exact = await eventually(
    "every counter exact after the restart",
    async () => {
      const { counted, expected } = await counters(siteId, formId, webhookId);
      return JSON.stringify(counted) === JSON.stringify(expected) ? expected : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  // Every answered submission is stored (and so counted): 2 before, the answered part of the load at least.
  expect(exact.webhook).toBeGreaterThanOrEqual(2 + statuses.filter((s) => s === 200).length);

  await stack.stop();
  stack = undefined;
}, 420_000);
