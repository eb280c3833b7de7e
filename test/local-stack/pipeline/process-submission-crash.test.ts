import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { keys } from "../../../lib/store/keys";
import { submissionItem } from "../../../lib/store/submissions";
import { eventually } from "../../support/eventually";
import { makeSubmission } from "../../support/submissions";
import { pipelineBarrier } from "./support/barrier";
import { emailsTo, FIELDS, HOT_LEAD, recipient, type SentEmail } from "./support/emails";
import { call, type StackProcess, startStackProcess } from "./support/stack-process";

/**
 * Fault: the process running the local stack is killed (SIGKILL, DynamoDB Local's JVM with it)
 * between a submission's write and its hand-off to the consumer. After a restart on the same
 * data folder, the stream follower resumes from its saved position (infra/local/stream-position.ts)
 * and the submission's email still goes out, once. A whole second stack runs for this, in its own
 * process group; its SES emulator lives in that process, so each start has an empty one.
 */
let stack: StackProcess | undefined;
afterAll(async () => {
  await stack?.kill();
});

async function read(key: { pk: string; sk: string }) {
  return (await stack!.db.send(new GetCommand({ TableName: stack!.info.tableName, Key: key, ConsistentRead: true }))).Item;
}

/** Everything the restarted stack's pipeline had to do (the follower sends again what was not finished) is done. */
const drained = () => pipelineBarrier({ db: stack!.db, tableName: stack!.info.tableName });

const emailsFor = async (to: string, referenceId: string): Promise<SentEmail[]> =>
  (await emailsTo(to, stack!.info.sesEndpoint)).filter((e) => e.subject.includes(referenceId));

test("killed between the write and the hand-off: after restart the email still arrives, once", async () => {
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

  await stack.stop();
  stack = undefined;
}, 420_000);
