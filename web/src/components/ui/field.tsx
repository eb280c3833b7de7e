import { type FormEvent, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from "react";

/** A form's submit handler: runs `run` instead of the browser's own submission. */
export const submitWith = (run: () => void) => (event: FormEvent) => {
  event.preventDefault();
  run();
};

const CONTROL =
  "rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

interface Described {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

/** A field's label, its control, and its hint and error beside it (read by screen readers with the control). */
function Labelled({
  label,
  error,
  hint,
  className = "",
  control,
}: Described & {
  className?: string;
  control: (props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {control({
        id,
        ...(error ? { "aria-invalid": true as const } : {}),
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
      })}
      <Notes id={id} hint={hint} error={error} hintClass="text-xs text-slate-600 dark:text-slate-400" />
    </div>
  );
}

/** A field's hint and error, named by its control's `aria-describedby` (`<id>-hint`, `<id>-error`). */
function Notes({
  id,
  hint,
  error,
  hintClass,
}: {
  id: string;
  hint?: string | undefined;
  error?: string | undefined;
  hintClass: string;
}) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className={hintClass}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </>
  );
}

/** A labelled input with its hint and its error beside it (read by screen readers with the input). */
export function TextField({ label, error, hint, className = "", ...input }: InputHTMLAttributes<HTMLInputElement> & Described) {
  return (
    <Labelled
      label={label}
      error={error}
      hint={hint}
      className={className}
      control={(a11y) => <input className={CONTROL} {...a11y} {...input} />}
    />
  );
}

/** A labelled textarea, as TextField (`className` is the textarea's: a monospaced list of addresses). */
export function TextAreaField({
  label,
  error,
  hint,
  className = "",
  ...textarea
}: TextareaHTMLAttributes<HTMLTextAreaElement> & Described) {
  return (
    <Labelled
      label={label}
      error={error}
      hint={hint}
      control={(a11y) => <textarea className={`${CONTROL} ${className}`} {...a11y} {...textarea} />}
    />
  );
}

/** A labelled select, styled as the inputs are. */
export function SelectField({
  label,
  options,
  ...select
}: React.SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: readonly { value: string; label: string }[] }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        {...select}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The error of a whole form or row (not of one field): announced as soon as it appears. */
export function FormError({ message, className = "" }: { message?: string | undefined; className?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className={`rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200 ${className}`}
    >
      {message}
    </p>
  );
}

/** A labelled checkbox (the label after it), with its hint and its error beside it, as TextField. */
export function CheckboxField({
  label,
  error,
  hint,
  checked,
  onChange,
}: Described & { checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          {...(error ? { "aria-invalid": true as const } : {})}
          {...(describedBy ? { "aria-describedby": describedBy } : {})}
          className="h-4 w-4 accent-indigo-700 dark:accent-indigo-400"
        />
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
      </div>
      <Notes id={id} hint={hint} error={error} hintClass="text-sm text-slate-600 dark:text-slate-300" />
    </div>
  );
}
