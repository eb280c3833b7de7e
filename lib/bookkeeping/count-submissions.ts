import { log } from "../log";
import { type AppliedBatch, applyCountChanges, type CountedChange } from "../store/bookkeeping";
import type { StreamBatch, StreamChange } from "./stream-batch";

/**
 * The bookkeeper's counting job: every stored submission (an INSERT) and every removed one (a
 * REMOVE, whatever removed it: a delete, a bulk delete, an erasure, a purge, an expiry) moves
 * the counts of docs/data-model.md ("Counting a form's submissions", "Daily counts"), exactly
 * once per record (lib/store/bookkeeping.ts). A MODIFY changes no count: moderation moves the
 * counts itself, in the flag's own transaction (lib/store/moderation.ts).
 */
export const COUNT_STEP = "counts";

/** The submission a record stores or removes, as a count needs it; undefined for any other record. */
export function countedChange(change: StreamChange): CountedChange | undefined {
  const item = change.eventName === "INSERT" ? change.newItem : change.eventName === "REMOVE" ? change.oldItem : undefined;
  if (item?.type !== "submission") return undefined;
  const { siteId, webhookId, formId, createdAt, isSpam } = item;
  const known = [siteId, webhookId, formId, createdAt].every((v) => typeof v === "string") && typeof isSpam === "boolean";
  if (!known) {
    // Every submission is written with these (lib/store/submissions.ts): one without is a bug, and counting it a guess.
    log.error("bookkeeper: a submission record lacks what its count needs", { eventId: change.eventId });
    return undefined;
  }
  return {
    sequenceNumber: change.sequenceNumber,
    change: change.eventName === "INSERT" ? "stored" : "removed",
    submission: {
      siteId: siteId as string,
      webhookId: webhookId as string,
      formId: formId as string,
      createdAt: createdAt as string,
      isSpam: isSpam as boolean,
    },
  };
}

export async function countSubmissions(batch: StreamBatch): Promise<AppliedBatch> {
  const changes = batch.changes.flatMap((change) => countedChange(change) ?? []);
  return applyCountChanges(batch.id, COUNT_STEP, changes);
}
