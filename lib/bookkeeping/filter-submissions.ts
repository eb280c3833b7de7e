import { log } from "../log";
import { facetsOf, type ViewEntryChange, writeViewEntries } from "../store/view-entries";
import type { StreamBatch, StreamChange } from "./stream-batch";

/**
 * The bookkeeper's filter job (docs/data-model.md, "Filter entry"): for each record of a
 * submission, the facets of its old image and of its new one (none unless it is an inbox
 * submission: not spam, not expired) are compared, and the entries that differ are put or
 * deleted. A stored submission (INSERT) gets its entries, a removed one (REMOVE) loses them, a
 * triage change, a moderation or a retention re-dating (MODIFY) moves them; an entry carries the
 * submission's `ttl`, so a change of `ttl` rewrites its entries. No checkpoint: puts and deletes
 * are idempotent and a shard's records of one item come in order, so a batch handed over again
 * ends where it ended (as the search entries, ./index-submissions.ts).
 */
export const FILTER_STEP = "filters";

const ttlOf = (item: Record<string, unknown> | undefined) => (typeof item?.ttl === "number" ? item.ttl : undefined);

/** The entry changes of one record; none for a record of anything but a submission. */
export function viewChangesOf(change: StreamChange, nowS?: number): ViewEntryChange[] {
  const item = change.newItem ?? change.oldItem;
  if (item?.type !== "submission") return [];
  const { id, formId, createdAt } = item;
  if (![id, formId, createdAt].every((v) => typeof v === "string")) {
    log.error("bookkeeper: a submission record lacks what its filter entries need", { eventId: change.eventId });
    return [];
  }
  // The old image's entries are deleted whether or not it had expired by now (0: nothing has):
  // deleting an entry that is not there is harmless, leaving one behind is not.
  const before = new Set(change.eventName === "INSERT" ? [] : facetsOf(change.oldItem, 0));
  const after = new Set(change.eventName === "REMOVE" ? [] : facetsOf(change.newItem, nowS));
  const ttl = ttlOf(change.newItem);
  const redated = ttl !== ttlOf(change.oldItem);
  const entry = (facet: string) => ({
    formId: formId as string,
    facet,
    createdAt: createdAt as string,
    submissionId: id as string,
  });
  return [
    ...[...before].filter((f) => !after.has(f)).map((f) => ({ ...entry(f), put: null })),
    ...[...after].filter((f) => redated || !before.has(f)).map((f) => ({ ...entry(f), put: ttl === undefined ? {} : { ttl } })),
  ];
}

export async function filterSubmissions(batch: StreamBatch): Promise<{ puts: number; deletes: number }> {
  const nowS = Math.floor(Date.now() / 1000);
  const changes = batch.changes.flatMap((change) => viewChangesOf(change, nowS));
  await writeViewEntries(changes);
  const puts = changes.filter((c) => c.put).length;
  return { puts, deletes: changes.length - puts };
}
