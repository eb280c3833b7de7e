import { CheckboxField, SelectField } from "../../components/ui/field";
import { type Member, STATUS_LABELS, STATUSES, type Status, type Tag } from "../../lib/triage";
import type { ListFilters } from "./queries";

export type TriageFilters = Pick<ListFilters, "status" | "owner" | "tag" | "unread">;

const pressed =
  "rounded-full border px-3 py-1.5 text-sm font-medium aria-pressed:border-indigo-700 aria-pressed:bg-indigo-700 aria-pressed:text-white border-slate-300 bg-white text-slate-900 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:aria-pressed:border-indigo-300 dark:aria-pressed:bg-indigo-300 dark:aria-pressed:text-slate-950";

/**
 * The inbox's triage filters, applied as soon as one changes (each is a part of the URL):
 * the status (a button each, with how many leads of the form have it), the owner (mine, nobody's,
 * or a member), a tag, and unread only. They combine with each other and with the search and dates.
 */
export function TriageFilterBar({
  filters,
  counts,
  tags,
  members,
  onChange,
}: {
  filters: TriageFilters;
  counts: Partial<Record<Status, number>> | undefined;
  tags: readonly Tag[];
  members: readonly Member[];
  onChange: (next: TriageFilters) => void;
}) {
  const set = (change: TriageFilters) => onChange({ ...filters, ...change });
  return (
    <div className="mb-4 flex flex-col gap-3">
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="sr-only">Status</legend>
        <button type="button" className={pressed} aria-pressed={!filters.status} onClick={() => set({ status: undefined })}>
          Any status
        </button>
        {STATUSES.map((status) => (
          <button
            key={status}
            type="button"
            className={pressed}
            aria-pressed={filters.status === status}
            onClick={() => set({ status: filters.status === status ? undefined : status })}
          >
            {STATUS_LABELS[status]}
            {counts?.[status] !== undefined && <span className="tabular-nums"> ({counts[status]})</span>}
          </button>
        ))}
      </fieldset>
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          label="Owner"
          value={filters.owner ?? ""}
          onChange={(e) => set({ owner: e.target.value || undefined })}
          options={[
            { value: "", label: "Anyone or nobody" },
            { value: "me", label: "Mine" },
            { value: "none", label: "Nobody's" },
            ...members.map((m) => ({ value: m.id, label: m.name })),
          ]}
        />
        <SelectField
          label="Tag"
          value={filters.tag ?? ""}
          onChange={(e) => set({ tag: e.target.value || undefined })}
          options={[{ value: "", label: "Any tag" }, ...tags.map((t) => ({ value: t.id, label: t.name }))]}
        />
        <div className="pb-2">
          <CheckboxField
            label="Unread only"
            checked={filters.unread === true}
            onChange={(on) => set({ unread: on || undefined })}
          />
        </div>
      </div>
    </div>
  );
}
