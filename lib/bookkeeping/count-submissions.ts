import { log } from "../log";
import { type AppliedBatch, applyCountChanges, type CountedChange } from "../store/bookkeeping";
import type { StatusDeltas } from "../store/submission-counts";
import { statusOf } from "../store/view-entries";
import type { StreamBatch, StreamChange } from "./stream-batch";

/**
 * The bookkeeper's counting job: every stored submission (an INSERT) and every removed one (a
 * REMOVE, whatever removed it: a delete, a bulk delete, an erasure, a purge, an expiry) moves
 * the counts of docs/data-model.md ("Counting a form's submissions", "Daily counts"), exactly
 * once per record (lib/store/bookkeeping.ts). A MODIFY moves no inbox or spam count: moderation
 * moves those itself, in the flag's own transaction (lib/store/moderation.ts). The per-status
 * counts (lib/store/submission-counts.ts, StatusDeltas) move here only, from every record: a
 * store or removal of an inbox submission with a status other than new, and a MODIFY that changes
 * a status or moves a triaged submission in or out of the inbox (moderation included).
 */
export const COUNT_STEP = "counts";

/** What an image counts under (`new` is derived, ./submission-counts.ts): a set status of an inbox submission. */
function statusCounted(item: Record<string, unknown> | undefined): keyof StatusDeltas | undefined {
  if (item?.type !== "submission" || item.isSpam !== false) return undefined;
  const status = statusOf(item);
  return status === "new" ? undefined : status;
}

/** How a record moves the per-status counts; undefined when it does not. */
export function statusDeltas(change: StreamChange): StatusDeltas | undefined {
  const before = change.eventName === "INSERT" ? undefined : statusCounted(change.oldItem);
  const after = change.eventName === "REMOVE" ? undefined : statusCounted(change.newItem);
  if (before === after) return undefined;
  const deltas: StatusDeltas = {};
  if (before) deltas[before] = -1;
  if (after) deltas[after] = 1;
  return deltas;
}

/** The submission a record stores, removes or (its counted status) modifies, as a count needs it; undefined for any other record. */
export function countedChange(change: StreamChange): CountedChange | undefined {
  const item = change.eventName === "REMOVE" ? change.oldItem : change.newItem;
  if (item?.type !== "submission") return undefined;
  const statuses = statusDeltas(change);
  if (change.eventName === "MODIFY" && !statuses) return undefined;
  const { siteId, webhookId, formId, createdAt, isSpam } = item;
  const known = [siteId, webhookId, formId, createdAt].every((v) => typeof v === "string") && typeof isSpam === "boolean";
  if (!known) {
    // Every submission is written with these (lib/store/submissions.ts): one without is a bug, and counting it a guess.
    log.error("bookkeeper: a submission record lacks what its count needs", { eventId: change.eventId });
    return undefined;
  }
  return {
    sequenceNumber: change.sequenceNumber,
    change: change.eventName === "INSERT" ? "stored" : change.eventName === "REMOVE" ? "removed" : "modified",
    submission: {
      siteId: siteId as string,
      webhookId: webhookId as string,
      formId: formId as string,
      createdAt: createdAt as string,
      isSpam: isSpam as boolean,
      ...(item.imported === undefined ? {} : { imported: true }),
    },
    ...(statuses ? { statuses } : {}),
  };
}

export async function countSubmissions(batch: StreamBatch): Promise<AppliedBatch> {
  const changes = batch.changes.flatMap((change) => countedChange(change) ?? []);
  return applyCountChanges(batch.id, COUNT_STEP, changes);
}
