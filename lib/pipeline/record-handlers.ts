import { handleDeliveryMessage } from "../outbound/attempts";
import { deliveryMessageSchema } from "../outbound/messages";
import { type PurgeJob, PurgeNotDue, runPurgePass } from "../purge";
import { handleReclaimMessage } from "../reclaim-link";
import { reclaimMessageSchema } from "../reclaim-request";
import * as z from "../validation";
import { type ConsumerHandlers, type RecordHandlers, retryLater } from "./outcome";
import { handleReleaseRecord, handleSubmissionRecord } from "./process-submission";

const purgeJobSchema = z.object({
  formId: z.string().check(z.minLength(1)),
  orgId: z.string(),
  siteId: z.string(),
  passes: z.number(),
  deleted: z.number(),
  createdAt: z.string(),
});

/**
 * What each item `type` that the intake filters pass (infra/intake-filter.ts) does, one entry per
 * type. A type without an entry is a failure of its message, never silently dropped: the DLQ
 * and its alarm surface it.
 */
export const RECORD_HANDLERS: RecordHandlers = {
  // A stored submission that is not spam, and a submission released from spam: the same
  // processing (./process-submission.ts), whose claims make each side effect once.
  submission: handleSubmissionRecord,
  release: handleReleaseRecord,
  purge: async (item) => {
    const job: PurgeJob = purgeJobSchema.parse(item);
    try {
      await runPurgePass(job);
    } catch (error) {
      if (error instanceof PurgeNotDue) return retryLater(error.message);
      throw error;
    }
  },
};

/** The consumer's registry: stream records by item type, internal messages by kind (lib/outbound/messages.ts). */
export const CONSUMER_HANDLERS: ConsumerHandlers = {
  records: RECORD_HANDLERS,
  messages: {
    delivery: { schema: deliveryMessageSchema, handle: (message) => handleDeliveryMessage(message) },
    // A reclaim request's link (docs/accounts.md): the request only queues it.
    "reclaim-email": { schema: reclaimMessageSchema, handle: handleReclaimMessage },
  },
};
