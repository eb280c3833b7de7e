import { deliveryIdFor } from "../outbound/payload";
import { deleteDerivedRecords } from "../store/derived-records";
import { listFormEndpoints } from "../store/outbound-endpoints";
import type { StreamBatch } from "./stream-batch";

/**
 * The bookkeeper's follow-out job (docs/data-model.md, "What follows a submission out"): when a
 * submission is removed, whatever removed it (its TTL under the form's retention, a delete, an
 * erasure, a purge), the records kept about it go too: the emails sent for it and its outbound
 * deliveries. The counts and the search index follow it in their own jobs
 * (./count-submissions.ts, ./index-submissions.ts); the site's daily counts are history and stay.
 * A delivery's id is derived from (submission, endpoint) (lib/outbound/payload.ts), so the
 * form's endpoints name them: one Query per form per batch. No checkpoint: every write is a
 * delete, and a repeated batch deletes nothing twice.
 */
export const FOLLOW_OUT_STEP = "follow-out";

export async function followOut(batch: StreamBatch): Promise<{ submissions: number; emails: number; deliveries: number }> {
  const byForm = new Map<string, string[]>();
  for (const change of batch.changes) {
    const old = change.oldItem;
    if (change.eventName !== "REMOVE" || old?.type !== "submission") continue;
    if (typeof old.id !== "string" || typeof old.formId !== "string") continue;
    byForm.set(old.formId, [...(byForm.get(old.formId) ?? []), old.id]);
  }
  if (byForm.size === 0) return { submissions: 0, emails: 0, deliveries: 0 };
  const deliveryIds = (
    await Promise.all(
      [...byForm].map(async ([formId, submissionIds]) => {
        const endpoints = await listFormEndpoints(formId);
        return submissionIds.flatMap((submissionId) => endpoints.map((endpoint) => deliveryIdFor(submissionId, endpoint.id)));
      }),
    )
  ).flat();
  const submissionIds = [...byForm.values()].flat();
  const emails = await deleteDerivedRecords(submissionIds, deliveryIds);
  return { submissions: submissionIds.length, emails, deliveries: deliveryIds.length };
}
