import { useId, useState } from "react";
import type { Schema } from "../../api/types";

/** Days each kind of submission is kept; null: until someone deletes it (docs/privacy.md, "Retention"). */
export type Retention = Schema<"Retention">;

/** The API's bounds (docs/api.md, "Retention"). */
export const RETENTION_DAYS = { min: 1, max: 3650 } as const;

/** One kind's choice as edited: kept, or deleted after the typed number of days. */
interface Choice {
  keep: boolean;
  days: string;
}
export interface RetentionDraft {
  inbox: Choice;
  spam: Choice;
}

const choiceOf = (days: number | null, fallback: number): Choice =>
  days === null ? { keep: true, days: String(fallback) } : { keep: false, days: String(days) };

export const draftOf = (r: Retention): RetentionDraft => ({ inbox: choiceOf(r.inboxDays, 365), spam: choiceOf(r.spamDays, 30) });

/** The problem with a typed number of days, or undefined when it is a whole number in bounds. */
export function daysProblem(choice: Choice): string | undefined {
  if (choice.keep) return undefined;
  const days = Number(choice.days);
  if (!/^\d+$/.test(choice.days.trim()) || days < RETENTION_DAYS.min || days > RETENTION_DAYS.max) {
    return `A whole number of days from ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max}.`;
  }
  return undefined;
}

export const retentionOfDraft = (d: RetentionDraft): Retention => ({
  inboxDays: d.inbox.keep ? null : Number(d.inbox.days),
  spamDays: d.spam.keep ? null : Number(d.spam.days),
});

export const sameRetention = (a: Retention, b: Retention) => a.inboxDays === b.inboxDays && a.spamDays === b.spamDays;

/** "Kept until deleted" or "Deleted after 30 days". */
export const retentionText = (days: number | null) =>
  days === null ? "kept until deleted" : `deleted ${days === 1 ? "a day" : `${days} days`} after they arrive`;

const RADIO = "size-4";

/** One kind's choice: a radio group (keep, or delete after N days) and the number of days, with its error. */
function ChoiceFields({
  legend,
  choice,
  onChange,
  error,
}: {
  legend: string;
  choice: Choice;
  onChange: (choice: Choice) => void;
  error: string | undefined;
}) {
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <div className="flex items-center gap-2">
        <input
          id={`${id}-keep`}
          type="radio"
          name={`${id}-choice`}
          className={RADIO}
          checked={choice.keep}
          onChange={() => onChange({ ...choice, keep: true })}
        />
        <label htmlFor={`${id}-keep`} className="text-sm">
          Keep until deleted
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={`${id}-after`}
          type="radio"
          name={`${id}-choice`}
          className={RADIO}
          checked={!choice.keep}
          onChange={() => onChange({ ...choice, keep: false })}
        />
        <label htmlFor={`${id}-after`} className="text-sm">
          Delete after
        </label>
        <input
          id={`${id}-days`}
          type="number"
          inputMode="numeric"
          min={RETENTION_DAYS.min}
          max={RETENTION_DAYS.max}
          step={1}
          aria-label={`${legend}: days`}
          disabled={choice.keep}
          value={choice.days}
          onChange={(e) => onChange({ keep: false, days: e.target.value })}
          {...(error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {})}
          className="w-24 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-60 aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        />
        <span className="text-sm">days</span>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The two choices of a retention: the inbox's and the spam folder's. */
export function RetentionFields({
  draft,
  onChange,
  errors,
}: {
  draft: RetentionDraft;
  onChange: (draft: RetentionDraft) => void;
  errors: { inbox?: string | undefined; spam?: string | undefined };
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ChoiceFields
        legend="Inbox submissions"
        choice={draft.inbox}
        onChange={(inbox) => onChange({ ...draft, inbox })}
        error={errors.inbox}
      />
      <ChoiceFields legend="Spam" choice={draft.spam} onChange={(spam) => onChange({ ...draft, spam })} error={errors.spam} />
    </div>
  );
}

/**
 * The state of a retention's editor: the draft, the problems to show beside each choice (the
 * typed days once a save was tried, else the API's answer on `path.inboxDays` / `path.spamDays`),
 * whether it differs from `saved`, and `submit`, which saves only a valid draft.
 */
export function useRetentionDraft(
  saved: Retention,
  options: { path: string; error: { field(path: string): string | undefined } | undefined; save: () => void },
) {
  const [draft, setDraft] = useState<RetentionDraft>(() => draftOf(saved));
  const [checked, setChecked] = useState(false);
  const valid = !daysProblem(draft.inbox) && !daysProblem(draft.spam);
  return {
    draft,
    setDraft,
    /** After a save: the editor shows what was stored, with no problem. */
    reset: (stored: Retention) => {
      setDraft(draftOf(stored));
      setChecked(false);
    },
    problems: {
      inbox: (checked ? daysProblem(draft.inbox) : undefined) ?? options.error?.field(`${options.path}.inboxDays`),
      spam: (checked ? daysProblem(draft.spam) : undefined) ?? options.error?.field(`${options.path}.spamDays`),
    },
    unchanged: valid && sameRetention(retentionOfDraft(draft), saved),
    submit: () => {
      setChecked(true);
      if (valid) options.save();
    },
  };
}
