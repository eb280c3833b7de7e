import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { mergedRetention, type Retention, retentionOf, sameRetention } from "./retention";
import type { AuditEntryInput } from "./store/audit-log";
import type { Form, FormChanges } from "./store/forms";
import { updateFormRetention } from "./store/retention-jobs";

/**
 * A form's retention change (docs/privacy.md, "Retention"), apart from lib/forms.ts: the form's
 * write with the retention job that re-dates its submissions and the change's audit entry.
 */

/** How an edit of a form is written: the form as written, "CONFLICT", or undefined when it is gone. */
export type FormWriter = (current: Form, changes: FormChanges, updatedAt: string) => Promise<Form | "CONFLICT" | undefined>;

/**
 * The writer of an edit that changes the form's retention (undefined: the edit leaves it as it is,
 * and the form is written alone). The new retention goes into the changes, the job (generation:
 * the change's `updatedAt`, strictly later for each change of the form) replaces any running
 * one, and the entry records both values before and after.
 */
export function retentionChange(
  principal: Principal,
  sourceIp: string,
  form: Form,
  input: Partial<Retention> | undefined,
  /** Other entries of the same edit (turning forward-only on or off), written in its transaction. */
  alsoAudited: readonly AuditEntryInput[] = [],
): FormWriter | undefined {
  if (input === undefined) return undefined;
  const before = retentionOf(form);
  const after = mergedRetention(before, input);
  if (sameRetention(before, after)) return undefined;
  return (current, changes, updatedAt) =>
    updateFormRetention(
      current,
      { ...changes, retention: after },
      updatedAt,
      {
        formId: current.id,
        orgId: current.orgId,
        generation: Date.parse(updatedAt),
        retention: after,
        status: "running",
        examined: 0,
        updated: 0,
        passes: 0,
        cursor: null,
        startedAt: updatedAt,
        finishedAt: null,
      },
      [
        audited(
          principal,
          sourceIp,
          "form.retention_changed",
          { type: "form", id: current.id, name: current.name },
          {
            inboxDaysBefore: before.inboxDays,
            spamDaysBefore: before.spamDays,
            inboxDays: after.inboxDays,
            spamDays: after.spamDays,
          },
        ),
        ...alsoAudited,
      ],
    );
}

/** The API's view of the job applying the form's latest retention change; null before the first. */
export const retentionJobView = (form: Form) =>
  form.retentionJob
    ? {
        status: form.retentionJob.status,
        examined: form.retentionJob.examined,
        updated: form.retentionJob.updated,
        startedAt: form.retentionJob.startedAt,
        finishedAt: form.retentionJob.finishedAt,
      }
    : null;
