import { useId } from "react";
import { Button } from "../../components/ui/button";
import { SelectField, TextField } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { type FieldRow, relabel, TYPE_OPTIONS } from "./field-rules";
import type { FieldType } from "./queries";

export function FieldEditor({
  row,
  index,
  last,
  problems,
  onChange,
  onMove,
  onRemove,
}: {
  row: FieldRow;
  index: number;
  last: boolean;
  problems: { key?: string | undefined; label?: string | undefined };
  onChange: (row: FieldRow) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const name = row.label.trim() || row.key.trim() || `field ${index + 1}`;
  const requiredId = useId();
  return (
    <li>
      <fieldset className={`${card} flex flex-wrap items-end gap-3`}>
        <legend className="sr-only">
          Field {index + 1}: {name}
        </legend>
        <span aria-hidden="true" className="w-6 self-center text-sm text-slate-600 dark:text-slate-300">
          {index + 1}.
        </span>
        <TextField
          label="Label"
          value={row.label}
          maxLength={255}
          error={problems.label}
          onChange={(e) => onChange(relabel(row, e.target.value))}
        />
        <TextField
          label="Key"
          value={row.key}
          maxLength={100}
          error={problems.key}
          hint={row.saved ? "The name data is stored under" : undefined}
          className="font-mono"
          onChange={(e) => onChange({ ...row, key: e.target.value })}
        />
        <SelectField
          label="Type"
          value={row.type}
          options={TYPE_OPTIONS}
          onChange={(e) => onChange({ ...row, type: e.target.value as FieldType })}
        />
        <div className="flex items-center gap-2 self-center pt-5">
          <input
            id={requiredId}
            type="checkbox"
            className="h-4 w-4"
            checked={row.required}
            onChange={(e) => onChange({ ...row, required: e.target.checked })}
          />
          <label htmlFor={requiredId} className="text-sm">
            Required
          </label>
        </div>
        <div className="ml-auto flex gap-1">
          <Button
            id={`${row.id}-up`}
            variant="ghost"
            disabled={index === 0}
            onClick={() => onMove(-1)}
            aria-label={`Move up: ${name}`}
          >
            Move up
          </Button>
          <Button
            id={`${row.id}-down`}
            variant="ghost"
            disabled={last}
            onClick={() => onMove(1)}
            aria-label={`Move down: ${name}`}
          >
            Move down
          </Button>
          <Button variant="ghost" onClick={onRemove} aria-label={`Remove: ${name}`}>
            Remove
          </Button>
        </div>
      </fieldset>
    </li>
  );
}
