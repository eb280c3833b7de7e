import { tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditEntryItem } from "./audit-log";
import { keys } from "./keys";
import { type TransactItem, transactWithRetry } from "./transactions";

/** TransactWriteItems takes 100 actions: 99 deletes and the entry that records them. */
const DELETES_PER_TRANSACTION = 99;

/**
 * Deletes submissions by id with the audit entry that records them (docs/privacy.md, "Erasure
 * and access requests"): each TransactWriteItems holds up to 99 deletes and one entry naming how
 * many it deleted (`entryFor(count)`), so no deletion lands without its entry, and no entry
 * without its deletions. Deleting an absent submission succeeds (no condition), as BatchWriteItem
 * does for the per-site erasure; a transaction costs twice the write units of a batch.
 */
export async function deleteSubmissionsAudited(
  submissionIds: readonly string[],
  entryFor: (count: number) => AuditEntryInput,
): Promise<void> {
  for (let at = 0; at < submissionIds.length; at += DELETES_PER_TRANSACTION) {
    const chunk = submissionIds.slice(at, at + DELETES_PER_TRANSACTION);
    const deletes: TransactItem[] = chunk.map((id) => ({ Delete: { TableName: tableName(), Key: keys.submission(id) } }));
    await transactWithRetry({ TransactItems: [...deletes, auditEntryItem(entryFor(chunk.length))] });
  }
}
