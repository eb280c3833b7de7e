import { useId, useState } from "react";
import type { apiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { TAG_COLOURS, TagChip } from "../../components/ui/tag-chip";
import type { Tag } from "../../lib/triage";
import type { TagInput } from "./queries";

/** Each colour the API has, in words (one it adds and this lacks fails `npm run typecheck`). */
const COLOUR_NAMES: Record<Tag["colour"], string> = {
  gray: "Gray",
  red: "Red",
  orange: "Orange",
  amber: "Amber",
  green: "Green",
  teal: "Teal",
  blue: "Blue",
  indigo: "Indigo",
  purple: "Purple",
  pink: "Pink",
};

/** A tag's name and colour (each colour a radio, shown as a chip with its name, so it never rests on colour alone). */
export function TagForm({
  initial,
  submitLabel,
  onSave,
  pending,
  error,
}: {
  initial: TagInput;
  submitLabel: string;
  onSave: (input: TagInput) => void;
  pending: boolean;
  error: ReturnType<typeof apiError>;
}) {
  const [draft, setDraft] = useState(initial);
  const group = useId();
  return (
    <form className="flex flex-col gap-3" onSubmit={submitWith(() => onSave({ ...draft, name: draft.name.trim() }))}>
      <TextField
        label="Name"
        value={draft.name}
        maxLength={32}
        required
        error={error?.field("name")}
        hint="Up to 32 characters; each name once in the organization."
        onChange={(e) => setDraft({ ...draft, name: e.target.value })}
      />
      <fieldset>
        <legend className="text-sm font-medium">Colour</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {TAG_COLOURS.map((colour) => (
            <label key={colour} className="inline-flex min-h-9 cursor-pointer items-center gap-1.5 rounded-md px-1 text-sm">
              <input
                type="radio"
                name={group}
                value={colour}
                checked={draft.colour === colour}
                onChange={() => setDraft({ ...draft, colour })}
                className="h-4 w-4 accent-indigo-700 dark:accent-indigo-400"
              />
              <TagChip name={COLOUR_NAMES[colour]} colour={colour} />
            </label>
          ))}
        </div>
      </fieldset>
      <FormError message={error?.formMessage} />
      <div>
        <Button type="submit" disabled={pending || !draft.name.trim()}>
          {pending ? "Saving…" : submitLabel}
        </Button>
      </div>
    </form>
  );
}
