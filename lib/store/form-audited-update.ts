import type { AuditEntryInput } from "./audit-log";
import { type Form, type FormChanges, formUpdate } from "./forms";
import { updateIfUnchangedAudited } from "./optimistic-audited";

/**
 * `updateForm` (./forms.ts) for a change the audit log records (a form's forward-only setting:
 * docs/privacy.md), with its entry in the same transaction.
 */
export const updateFormAudited = (current: Form, changes: FormChanges, updatedAt: string, entry: AuditEntryInput) =>
  updateIfUnchangedAudited(formUpdate(current, changes, updatedAt), { ...current, ...changes, updatedAt }, entry);
