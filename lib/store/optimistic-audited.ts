import { type AuditEntryInput, auditEntryItem } from "./audit-log";
import { refusedUpdate, type UnchangedUpdate, unchangedUpdate } from "./optimistic";
import { transact } from "./transactions";

/**
 * `updateIfUnchanged` (./optimistic.ts) with its audit entry in the same transaction
 * (./audit-log.ts): the change and its entry are written together or not at all. A transaction
 * answers no item: the caller gives the item as it will be once written (`written`: what it read,
 * with the changes and the new `updatedAt`), which the condition on `updatedAt` makes exact.
 */
export async function updateIfUnchangedAudited<T>(
  options: UnchangedUpdate<T>,
  written: Record<string, unknown>,
  entry: AuditEntryInput,
): Promise<T | "CONFLICT" | undefined> {
  const cancelled = await transact([
    ["item", { Update: unchangedUpdate(options) }],
    ["audit", auditEntryItem(entry)],
  ]);
  if (!cancelled) return options.map(written);
  if (cancelled.refused("item")) return refusedUpdate(options, cancelled.found("item"));
  throw cancelled.error;
}
