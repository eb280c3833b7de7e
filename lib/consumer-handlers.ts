import { runImportPass } from "./import-job";
import { handleDeliveryMessage } from "./outbound/attempts";
import { deliveryMessageSchema } from "./outbound/messages";
import type { ConsumerRegistry, RecordHandlers } from "./pipeline/outcome";
import { handleChangeRecord } from "./pipeline/process-change";
import { handleReleaseRecord, handleSubmissionRecord } from "./pipeline/process-submission";
import { type PurgeJob, PurgeNotDue, runPurgePass } from "./purge";
import { retryLater } from "./queue-message";
import { handleReclaimMessage } from "./reclaim-link";
import { reclaimMessageSchema } from "./reclaim-request";
import { RetentionNotDue, runRetentionPass } from "./retention-job";
import { toImportJob } from "./store/imports";
import * as z from "./validation";

/**
 * The consumer's registry: what each message on the intake queue does. It sits above the
 * pipeline (docs/architecture.md): the generic batch runner (lib/pipeline/batch.ts) knows no
 * handler, and the handlers live with what they handle (a submission's processing in
 * lib/pipeline/, a delivery attempt in lib/outbound/, a purge pass in ./purge.ts, a reclaim link
 * in ./reclaim-link.ts), so no concern folder imports a resource module to name them.
 */

const purgeJobSchema = z.object({
  formId: z.string().check(z.minLength(1)),
  orgId: z.string(),
  siteId: z.string(),
  passes: z.number(),
  deleted: z.number(),
  createdAt: z.string(),
});

const retentionJobSchema = z.object({
  formId: z.string().check(z.minLength(1)),
  orgId: z.string(),
  generation: z.number(),
  retention: z.object({ inboxDays: z.nullable(z.number()), spamDays: z.nullable(z.number()) }),
  status: z.enum(["running", "finished"]),
  examined: z.number(),
  updated: z.number(),
  passes: z.number(),
  cursor: z.nullable(z.record(z.string(), z.string())),
  startedAt: z.string(),
  finishedAt: z.nullable(z.string()),
});

const importJobSchema = z.object({
  id: z.string().check(z.minLength(1)),
  formId: z.string().check(z.minLength(1)),
  orgId: z.string(),
  siteId: z.string(),
  status: z.enum(["running", "finished"]),
  total: z.number(),
  cursor: z.number(),
  passes: z.number(),
});

/**
 * What each item `type` that the intake filters pass (infra/intake-filter.ts) does, one entry per
 * type. A type without an entry is a failure of its message, never silently dropped: the DLQ
 * and its alarm surface it.
 */
export const RECORD_HANDLERS: RecordHandlers = {
  // A stored submission that is not spam, and a submission released from spam: the same
  // processing (lib/pipeline/process-submission.ts), whose claims make each side effect once.
  submission: handleSubmissionRecord,
  release: handleReleaseRecord,
  // A status, owner or tags change's timeline entry: the outbox of `submission.updated`.
  submission_change: handleChangeRecord,
  purge: async (item) => {
    const job: PurgeJob = purgeJobSchema.parse(item);
    try {
      await runPurgePass(job);
    } catch (error) {
      if (error instanceof PurgeNotDue) return retryLater(error.message);
      throw error;
    }
  },
  // A form's retention job, written with a retention change and bumped by each pass (lib/retention-job.ts).
  retention: async (item) => {
    try {
      await runRetentionPass(retentionJobSchema.parse(item));
    } catch (error) {
      if (error instanceof RetentionNotDue) return retryLater(error.message);
      throw error;
    }
  },
  // A form's import job, written by the import route and bumped by each pass (lib/import-job.ts).
  import: async (item) => {
    importJobSchema.parse(item);
    await runImportPass(toImportJob(item));
  },
};

/** Stream records by item type, internal messages by kind (lib/queue-message.ts, one handler per kind). */
export const CONSUMER_HANDLERS: ConsumerRegistry = {
  records: RECORD_HANDLERS,
  messages: {
    delivery: { schema: deliveryMessageSchema, handle: (message) => handleDeliveryMessage(message) },
    // A reclaim request's link (docs/accounts.md): the request only queues it.
    "reclaim-email": { schema: reclaimMessageSchema, handle: handleReclaimMessage },
  },
};
