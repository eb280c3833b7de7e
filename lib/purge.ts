import { loadConfig } from "./config";
import { log } from "./log";
import { countPurgePass, deleteFormPartitionAndJob, deleteSubmissionsOfForm } from "./store/purge-jobs";

/** Submissions deleted per pass: one pass stays far inside a consumer invocation's 30 s. */
export const PURGE_PASS_SIZE = 500;

export interface PurgeJob {
  formId: string;
  orgId: string;
  siteId: string;
  passes: number;
  deleted: number;
  createdAt: string;
}

/** Thrown when a job must wait: the queue delivers the message again after its visibility timeout. */
export class PurgeNotDue extends Error {
  constructor(readonly formId: string) {
    super(`purge of ${formId} waits for its grace period`);
    this.name = "PurgeNotDue";
  }
}

/**
 * One pass of a form's background purge. A purge job item (written in the same transaction that
 * permanently deleted the webhook) reaches the intake queue through the table stream; each pass
 * deletes up to PURGE_PASS_SIZE submissions and then bumps the job item, whose MODIFY event
 * queues the next pass. So a function that dies mid-pass loses nothing: the message comes back
 * and the pass repeats (deletes are idempotent). When no submission is left (and the grace
 * period for submissions that were in flight when the webhook was deleted has passed), the
 * form's partition (the form, its outbound endpoints) is deleted, then the job.
 */
export async function runPurgePass(job: PurgeJob, now = Date.now()): Promise<"continued" | "finished"> {
  const deleted = await deleteSubmissionsOfForm(job.formId, PURGE_PASS_SIZE);
  if (deleted > 0) {
    await countPurgePass(job.formId, deleted);
    log.info("purge pass", { formId: job.formId, deleted, pass: job.passes + 1 });
    return "continued";
  }
  const graceMs = loadConfig().PURGE_GRACE_SECONDS * 1000;
  if (now - Date.parse(job.createdAt) < graceMs) throw new PurgeNotDue(job.formId);
  await deleteFormPartitionAndJob(job.formId, new Date(now).toISOString());
  log.info("purge finished", { formId: job.formId, deleted: job.deleted, passes: job.passes });
  return "finished";
}
