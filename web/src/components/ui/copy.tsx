import { useId } from "react";
import { Button } from "./button";
import { useToast } from "./toast";

/** A button that copies `value` and says so. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const toast = useToast();
  return (
    <Button
      variant="secondary"
      aria-label={`Copy ${label}`}
      onClick={() => {
        navigator.clipboard.writeText(value).then(
          () => toast(`${label} copied`),
          () => toast("Copy failed: select the text and copy it by hand"),
        );
      }}
    >
      Copy
    </Button>
  );
}

/** A read-only value (a URL, a secret, a snippet) with its label and a copy button. */
export function CopyField({ label, value, multiline = false }: { label: string; value: string; multiline?: boolean }) {
  const id = useId();
  const box =
    "w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-900 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100";
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex items-start gap-2">
        {multiline ? (
          <textarea id={id} readOnly value={value} rows={Math.min(14, value.split("\n").length + 1)} className={box} />
        ) : (
          <input id={id} readOnly value={value} className={box} />
        )}
        <CopyButton value={value} label={label} />
      </div>
    </div>
  );
}
