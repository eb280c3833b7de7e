import { loadConfig } from "./config";
import { log } from "./log";
import { expiryOf } from "./retention";
import {
  type DatedSubmission,
  datedSubmissionsAfter,
  type RetentionJob,
  recordRetentionPass,
  redateSubmission,
} from "./store/retention-jobs";

/** Re-dating writes in flight at once within a pass. */
const PARALLEL_WRITES = 25;

/** Thrown when a job must wait: the queue delivers the message again after its visibility timeout. */
export class RetentionNotDue extends Error {
  constructor(readonly formId: string) {
    super(`the retention job of ${formId} waits for submissions still in flight`);
    this.name = "RetentionNotDue";
  }
}

/**
 * Gives each submission whose `ttl` is not the one `retention` gives it that one, marked with
 * `generation` (a newer change's job may overwrite it, an older one's may not); answers how many
 * changed. The retention job's passes, and an import pass that wrote under an older retention.
 */
export async function redate(
  items: DatedSubmission[],
  { retention, generation }: Pick<RetentionJob, "retention" | "generation">,
): Promise<number> {
  const due = items.flatMap((s) => {
    const ttl = expiryOf(s.createdAt, s.isSpam, retention);
    return ttl === s.ttl ? [] : [{ s, ttl }];
  });
  let updated = 0;
  for (let i = 0; i < due.length; i += PARALLEL_WRITES) {
    const written = await Promise.all(
      due.slice(i, i + PARALLEL_WRITES).map(({ s, ttl }) => redateSubmission(s, ttl, generation)),
    );
    updated += written.filter(Boolean).length;
  }
  return updated;
}

/**
 * One pass of a form's retention job (docs/data-model.md, "Retention job"). The job item,
 * written with the retention change, reaches the consumer through the table stream; a pass
 * re-dates up to RETENTION_PASS_SIZE (500) submissions, oldest first, from where the last one stopped
 * (each gets the `ttl` of its current state under the new retention: lib/retention.ts), then
 * records itself on the job, whose MODIFY queues the next pass. A pass that dies repeats (a
 * re-dating is idempotent). At the end of the form's submissions the job waits out the intake
 * grace period (PURGE_GRACE_SECONDS: a request that read the form before the change may still be
 * writing with the old retention), looks once more past the last one, and finishes. A job a
 * newer change replaced stops at its next write (its generation is no longer the job's).
 */
export async function runRetentionPass(job: RetentionJob, now = Date.now()): Promise<"continued" | "finished" | "replaced"> {
  if (job.status !== "running") return "finished";
  const page = await datedSubmissionsAfter(job.formId, job.cursor, loadConfig().RETENTION_PASS_SIZE);
  const updated = await redate(page.items, job);
  const atEnd = page.items.length === 0;
  if (atEnd && now - Date.parse(job.startedAt) < loadConfig().PURGE_GRACE_SECONDS * 1000) {
    throw new RetentionNotDue(job.formId);
  }
  const finishedAt = atEnd ? new Date(now).toISOString() : null;
  const recorded = await recordRetentionPass(job, {
    examined: page.items.length,
    updated,
    cursor: page.last ?? job.cursor,
    finishedAt,
  });
  if (!recorded) {
    log.info("retention job replaced", { formId: job.formId, generation: job.generation });
    return "replaced";
  }
  log.info(atEnd ? "retention job finished" : "retention pass", {
    formId: job.formId,
    examined: job.examined + page.items.length,
    updated: job.updated + updated,
    pass: job.passes + 1,
  });
  return atEnd ? "finished" : "continued";
}
