import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../../lib/aws/dynamodb";
import { newId } from "../../../../lib/ids";
import { type Form, formItem } from "../../../../lib/store/forms";
import { keys } from "../../../../lib/store/keys";
import { submissionItem } from "../../../../lib/store/submissions";
import { eventually } from "../../../support/eventually";
import { formFixture } from "../../../support/fixtures";
import { makeSubmission } from "../../../support/submissions";

/**
 * A barrier through a local stack's pipeline, for a test that checks something did NOT happen
 * (no second email, no request to a disabled endpoint): it resolves once the pipeline has handled
 * every table stream record written and every queue message sent, without delay, before the call.
 * What has not happened by then would not come from those: the test may look.
 *
 * It passes probes through the pipeline one after the other: a submission written to the table
 * (of a form of its own, with nobody to notify and no endpoint), whose stored lead shows that the
 * consumer is handling it, and whose form's count shows that the bookkeeper counted it. The
 * bookkeeper reads the stream on its own (as its event source mapping does in AWS), in order too,
 * so every record written before a probe was bookkept once the probe is counted. The local
 * stack keeps order where this needs it:
 * - the stream follower reads DynamoDB Local's stream in order and sends each record as it reads
 *   it (infra/local/stream-follower.ts), and the SQS emulator hands out a queue's messages in the
 *   order they were sent (fauxqs keeps a standard queue as a list), so whatever was written or
 *   sent before a probe is received no later than in the probe's batch;
 * - the queue poller handles one batch at a time and receives the next only when it is done
 *   (infra/local/queue-poller.ts), so a probe written once the previous probe's lead is stored is
 *   in a later batch, which starts only after the previous probe's batch (and all it held) ended.
 * Three probes leave a margin for a stream of several shards, where a record may be read one
 * polling round after a probe written later.
 *
 * A message sent with a delay (a retry due later) is not waited for: a delivery's record says
 * when its next attempt is due, and the tests wait on that.
 */
export interface PipelineOf {
  db: DynamoDBDocumentClient;
  tableName: string;
}

const PROBES = 3;
const probeForms = new WeakMap<DynamoDBDocumentClient, Promise<Form>>();
/** Probes written per form (this process's): the form's count reaches each one's ordinal once it is bookkept. */
const probesWritten = new Map<string, number>();

/** The probes' form: written once per table client, on no site (no route of the stack reaches it). */
function probeForm(target: PipelineOf): Promise<Form> {
  let form = probeForms.get(target.db);
  if (!form) {
    const created = formFixture(newId("organization"), newId("site"), {
      name: "Pipeline barrier",
      fields: { note: { label: "Note", type: "text", required: false, order: 1 } },
    });
    form = target.db.send(new PutCommand({ TableName: target.tableName, Item: formItem(created) })).then(() => created);
    probeForms.set(target.db, form);
  }
  return form;
}

/** Passes the probes, waiting for each to reach the consumer (`queue`) and the bookkeeper (`books`), as asked. */
async function passProbes(target: PipelineOf, waitFor: { queue: boolean; books: boolean }): Promise<void> {
  const form = await probeForm(target);
  const read = async (key: ReturnType<typeof keys.submission>) =>
    (await target.db.send(new GetCommand({ TableName: target.tableName, Key: key, ConsistentRead: true }))).Item;
  for (let probe = 1; probe <= PROBES; probe++) {
    const submission = makeSubmission(form, { data: { note: `barrier ${probe}` } });
    const ordinal = (probesWritten.get(form.id) ?? 0) + 1;
    probesWritten.set(form.id, ordinal);
    await target.db.send(new PutCommand({ TableName: target.tableName, Item: submissionItem(submission) }));
    await Promise.all([
      waitFor.queue
        ? eventually(
            `the pipeline reaching probe ${probe} of ${PROBES}`,
            async () => (await read(keys.submission(submission.id)))?.lead !== undefined,
            { timeoutMs: 30_000, intervalMs: 50 },
          )
        : undefined,
      waitFor.books
        ? eventually(
            `the bookkeeper counting probe ${probe} of ${PROBES}`,
            async () => Number((await read(keys.formCounts(form.id)))?.inbox ?? 0) >= ordinal,
            { timeoutMs: 30_000, intervalMs: 50 },
          )
        : undefined,
    ]);
  }
}

export const pipelineBarrier = (target: PipelineOf = { db: db(), tableName: tableName() }): Promise<void> =>
  passProbes(target, { queue: true, books: true });

/**
 * The bookkeeper's part of the barrier alone, for a test that checks counts only: resolves once
 * every record written before the call is bookkept (the same probes, waited for at the
 * bookkeeper, which does not wait on the queue: about a quarter of the whole barrier's time).
 */
export const bookkeepingBarrier = (target: PipelineOf = { db: db(), tableName: tableName() }): Promise<void> =>
  passProbes(target, { queue: false, books: true });

/**
 * The bookkeeper has bookkept everything written before the call, however far behind it is:
 * bookkeeping barriers (each probe waits 30 s) until one passes, or `deadline` (epoch ms) has
 * passed. For the performance run's timed files, which the files before them leave thousands of
 * stream records behind (test/bench/search-scenarios.ts, "indexes every key of them in the
 * background"): what they time is then their own work, not that backlog's.
 */
export async function bookkeeperCaughtUp(deadline: number, target?: PipelineOf): Promise<void> {
  for (;;) {
    try {
      return await bookkeepingBarrier(target);
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}
