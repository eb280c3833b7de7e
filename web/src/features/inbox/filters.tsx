import { useState } from "react";
import { Button } from "../../components/ui/button";
import { submitWith, TextField } from "../../components/ui/field";
import type { ListFilters } from "./queries";

/** The filters of the view, edited here and applied to the URL (so the view is a link). */
export function Filters({ filters, onApply }: { filters: ListFilters; onApply: (filters: ListFilters) => void }) {
  const [draft, setDraft] = useState(filters);
  const submit = submitWith(() =>
    onApply({ q: draft.q?.trim() || undefined, from: draft.from || undefined, to: draft.to || undefined }),
  );
  return (
    <search>
      <form onSubmit={submit} className="mb-4 flex flex-wrap items-end gap-3">
        <TextField
          label="Search"
          type="search"
          value={draft.q ?? ""}
          onChange={(e) => setDraft({ ...draft, q: e.target.value })}
        />
        <TextField
          label="From"
          type="date"
          value={draft.from ?? ""}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
        <TextField label="To" type="date" value={draft.to ?? ""} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        <Button type="submit" variant="secondary">
          Apply filters
        </Button>
        {(filters.q || filters.from || filters.to) && (
          <Button
            variant="ghost"
            onClick={() => {
              setDraft({});
              onApply({});
            }}
          >
            Clear filters
          </Button>
        )}
      </form>
    </search>
  );
}
