import { type DragEvent, useId, useState } from "react";
import { SelectField } from "../../components/ui/field";
import { IMPORT_SOURCE_LABELS, type ImportSource } from "./queries";

/** The largest file the API reads (20 MB, decompressed): a larger one is refused here, before it is sent. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

const DETECT = "";

/**
 * The export to import: chosen with the file input, or dropped anywhere on its box; and its
 * format, detected unless the person names it.
 */
export function FilePicker({
  disabled,
  source,
  onFile,
  onSource,
}: {
  disabled: boolean;
  source: ImportSource | undefined;
  onFile: (text: string, fileName: string) => void;
  onSource: (source: ImportSource | undefined) => void;
}) {
  const id = useId();
  const [over, setOver] = useState(false);
  const [problem, setProblem] = useState<string>();
  const read = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setProblem(
        `${file.name} is ${Math.ceil(file.size / 1024 / 1024)} MB: the import reads files up to 20 MB. Split it, and import each part.`,
      );
      return;
    }
    setProblem(undefined);
    onFile(await file.text(), file.name);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled) void read(event.dataTransfer.files[0]);
  };
  return (
    <div className="flex flex-wrap items-end gap-4">
      <fieldset
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        className={`flex min-w-64 flex-1 flex-col gap-2 rounded-lg border-2 border-dashed p-4 ${over ? "border-indigo-700 bg-indigo-50 dark:border-indigo-300 dark:bg-indigo-950" : "border-slate-300 dark:border-slate-600"}`}
      >
        <legend className="sr-only">The export file: choose it, or drop it on this box</legend>
        <label htmlFor={id} className="text-sm font-medium">
          Export file (CSV or JSON)
        </label>
        <input
          id={id}
          type="file"
          accept=".csv,.json,.txt,text/csv,application/json"
          disabled={disabled}
          aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ""}`}
          {...(problem ? { "aria-invalid": true as const } : {})}
          onChange={(e) => {
            void read(e.target.files?.[0]);
            // Emptied once read, so the same file chosen again (after fixing it, say) is read again.
            e.target.value = "";
          }}
          className="text-sm"
        />
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          Or drop the file here. Up to 20 MB and 100,000 rows; a CSV needs a header row.
        </p>
        {problem && (
          <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
      </fieldset>
      <SelectField
        label="Format"
        value={source ?? DETECT}
        disabled={disabled}
        onChange={(e) => onSource(e.target.value === DETECT ? undefined : (e.target.value as ImportSource))}
        options={[
          { value: DETECT, label: "Detect it from the file" },
          ...Object.entries(IMPORT_SOURCE_LABELS).map(([value, label]) => ({ value, label })),
        ]}
      />
    </div>
  );
}
