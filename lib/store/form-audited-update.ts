import type { AuditEntryInput } from "./audit-log";
import { type Form, type FormChanges, formUpdate } from "./forms";
import { updateIfUnchanged } from "./optimistic";

/**
 * `updateForm` (./forms.ts) for a change the audit log records (a form's forward-only setting:
 * docs/privacy.md), with its entry in the same transaction.
 */
export const updateFormAudited = (current: Form, changes: FormChanges, updatedAt: string, entry: AuditEntryInput) =>
  updateIfUnchanged({ ...formUpdate(current, changes, updatedAt), audit: { entry, current: { ...current } } });
