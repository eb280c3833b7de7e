import { log } from "../log";
import { type Searchable, searchKeysOf, searchToken } from "../search-keys";
import { type SearchEntry, writeSearchEntries } from "../store/search-entries";
import type { StreamBatch } from "./stream-batch";

/**
 * The bookkeeper's search job (docs/data-model.md, "Search entry"): a stored submission (INSERT)
 * puts one entry per search key (lib/search-keys.ts) in its form's search index; a removed one
 * (REMOVE, whatever removed it) deletes the entries its old image computes to. No checkpoint:
 * puts and deletes are idempotent, and a shard's records come in order (a submission's INSERT
 * before its REMOVE, both on its own item), so a batch handed over again ends where it ended.
 */
export const SEARCH_STEP = "search";

/** The entries of the submission a record stores or removes; none for any other record. */
export function entriesOf(item: Record<string, unknown> | undefined, eventId: string): SearchEntry[] {
  if (item?.type !== "submission") return [];
  const { id, formId, createdAt, referenceId, data } = item;
  const known =
    [id, formId, createdAt, referenceId].every((v) => typeof v === "string") && data !== null && typeof data === "object";
  if (!known) {
    log.error("bookkeeper: a submission record lacks what its search keys need", { eventId });
    return [];
  }
  return searchKeysOf(item as unknown as Searchable).map((key) => ({
    formId: formId as string,
    token: searchToken(key),
    createdAt: createdAt as string,
    submissionId: id as string,
  }));
}

export async function indexSubmissions(batch: StreamBatch): Promise<{ puts: number; deletes: number }> {
  const changes = batch.changes.flatMap((change) => {
    if (change.eventName === "INSERT") return entriesOf(change.newItem, change.eventId).map((entry) => ({ entry, put: true }));
    if (change.eventName === "REMOVE") return entriesOf(change.oldItem, change.eventId).map((entry) => ({ entry, put: false }));
    return [];
  });
  await writeSearchEntries(changes);
  const puts = changes.filter((c) => c.put).length;
  return { puts, deletes: changes.length - puts };
}
