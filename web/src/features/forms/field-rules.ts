import type { FieldType, FormField } from "./queries";

/**
 * The builder's rows and the API's rules for them (docs/api.md, "Forms and submissions"),
 * checked here first so a mistake shows beside its field before anything is sent.
 */

export interface FieldRow {
  /** A stable identity for React and focus while keys are being edited. */
  id: string;
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  /** Whether the field is in the saved schema (its removal is then worth a word). */
  saved: boolean;
}

export const TYPE_OPTIONS: readonly { value: FieldType; label: string }[] = [
  { value: "text", label: "Short text" },
  { value: "textarea", label: "Long text" },
  { value: "name", label: "Name" },
  { value: "email", label: "Email" },
  { value: "phone", label: "Phone" },
  { value: "address", label: "Address" },
  { value: "number", label: "Number" },
  { value: "url", label: "Web address" },
  { value: "date", label: "Date" },
  { value: "checkbox", label: "Checkbox" },
  { value: "select", label: "Choice" },
];

let sequence = 0;
const rowId = () => `field-row-${++sequence}`;

export const rowsOf = (fields: FormField[]): FieldRow[] =>
  fields.map((f) => ({ id: rowId(), key: f.key, label: f.label, type: f.type, required: f.required, saved: true }));

export const newRow = (): FieldRow => ({ id: rowId(), key: "", label: "", type: "text", required: false, saved: false });

/** The intake's limit on a field name (lib/intake/limits.ts) and the API's on a label. */
const MAX_KEY = 100;
const MAX_LABEL = 255;

/** Names that would reach an object's prototype: refused as key segments, as the API refuses them. */
const RESERVED = new Set(["__proto__", "constructor", "prototype"]);

export function keyProblem(key: string, taken: boolean): string | undefined {
  if (key.length === 0) return "Enter a key: the name the data is sent under.";
  if (key.length > MAX_KEY) return `A key is at most ${MAX_KEY} characters.`;
  if (key.startsWith("_")) return "A key cannot start with _ (those names are control fields such as _redirect).";
  if (key.split(".").some((segment) => RESERVED.has(segment))) return "This key is reserved; choose another.";
  if (taken) return "Another field already has this key.";
  return undefined;
}

export function labelProblem(label: string): string | undefined {
  if (label.length === 0) return "Enter a label.";
  if (label.length > MAX_LABEL) return `A label is at most ${MAX_LABEL} characters.`;
  return undefined;
}

/** Each row's problems, by position: a repeated key is marked on every row after its first. */
export function fieldProblems(rows: FieldRow[]): { key?: string | undefined; label?: string | undefined }[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    const key = row.key.trim();
    const taken = seen.has(key);
    seen.add(key);
    return { key: keyProblem(key, taken), label: labelProblem(row.label.trim()) };
  });
}

/** A key suggested by a label: "Your email" → "your_email". */
export const keyFromLabel = (label: string) =>
  label
    .normalize("NFD")
    // Accents off ("café" → "cafe"): the key stays what the label reads as.
    .replace(/\p{M}/gu, "")
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, MAX_KEY);

/** A new label; a field not saved yet whose key still follows its label gets the new label's key. */
export function relabel(row: FieldRow, label: string): FieldRow {
  const follows = !row.saved && row.key === keyFromLabel(row.label);
  return { ...row, label, ...(follows ? { key: keyFromLabel(label) } : {}) };
}
