import { strip } from "../outbound/forward-only";
import { writeSearchEntries } from "../store/search-entries";
import { entriesOf } from "./index-submissions";
import type { StreamBatch, StreamChange } from "./stream-batch";

/**
 * The bookkeeper's forward-only job (docs/privacy.md, "Forward-only forms"; lib/outbound/forward-only.ts):
 * - a forward-only marker removed (REMOVE): when DynamoDB's TTL deleted it (or the local
 *   sweeper, with a DeleteItem like any other), the submission's bound has passed: its values
 *   are deleted now if it still holds them, whatever still retries. When the pipeline deleted it
 *   after stripping, the strip finds nothing to do. No `userIdentity` is read: both look alike.
 * - a submission whose values were deleted (the strip's MODIFY): the search entries its old
 *   image computes to are deleted, as for a removed submission (./index-submissions.ts). Its
 *   counts do not move: the submission still exists.
 * Every write is idempotent (a strip is conditioned on the values being there, a delete of an
 * absent entry succeeds), so a batch handed over again ends where it ended: no checkpoint.
 */
export const FORWARD_STEP = "forward";

const markerRemoved = (change: StreamChange) =>
  change.eventName === "REMOVE" && change.oldItem?.type === "forward_marker" ? change.oldItem : undefined;

const valuesDeleted = (change: StreamChange) =>
  change.eventName === "MODIFY" &&
  change.newItem?.type === "submission" &&
  change.newItem.valuesDeleted === true &&
  change.oldItem?.data !== undefined
    ? change.oldItem
    : undefined;

export async function followForwardOnly(batch: StreamBatch): Promise<{ stripped: number; deletes: number }> {
  const submissionIds = new Set<string>();
  for (const change of batch.changes) {
    const marker = markerRemoved(change);
    if (typeof marker?.submissionId === "string") submissionIds.add(marker.submissionId);
  }
  for (const submissionId of submissionIds) await strip(submissionId, "bound");
  const deletes = batch.changes.flatMap((change) => {
    const old = valuesDeleted(change);
    return old ? entriesOf(old, change.eventId).map((entry) => ({ entry, put: false })) : [];
  });
  await writeSearchEntries(deletes);
  return { stripped: submissionIds.size, deletes: deletes.length };
}
