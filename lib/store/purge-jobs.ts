import { keys } from "./keys";

/**
 * The purge job item (docs/data-model.md, "Background purge"): written in the same transaction as the
 * deletion that needs it (a form's, or a webhook's with its form), picked up from the stream by
 * the consumer (lib/purge.ts), which deletes the form's submissions pass by pass.
 */
export function purgeJobItem(job: { formId: string; orgId: string; siteId: string; reason: string; now: string }) {
  return {
    ...keys.purgeJob(job.formId),
    type: "purge",
    formId: job.formId,
    orgId: job.orgId,
    siteId: job.siteId,
    reason: job.reason,
    passes: 0,
    deleted: 0,
    createdAt: job.now,
  };
}
