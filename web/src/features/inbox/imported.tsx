import type { Submission } from "./queries";

/** Where an imported submission came from (docs/importing.md); null for everything intake stored. */
export type Imported = { importId: string; source: string; line: number } | null;

export const importedOf = (s: Submission): Imported => (s as Submission & { imported?: Imported }).imported ?? null;

const SOURCE_WORDS: Record<string, string> = {
  formspree: "a Formspree export",
  basin: "a Basin export",
  netlify: "a Netlify export",
  csv: "a CSV file",
  json: "a JSON file",
};

/** A submission brought in by an import, in words (never colour alone): its date is the original one. */
export function ImportedBadge() {
  return (
    <span className="ml-2 inline-block rounded border border-sky-800 px-1.5 py-0.5 text-xs font-medium text-sky-900 dark:border-sky-300 dark:text-sky-200">
      Imported
    </span>
  );
}

/** The lead page's line: the badge, the file's kind and the row's line. */
export function ImportedNote({ imported }: { imported: NonNullable<Imported> }) {
  return (
    <p className="mb-4 text-sm">
      <ImportedBadge /> from {SOURCE_WORDS[imported.source] ?? "a file"}, line {imported.line}: received at its original time,
      never notified nor delivered.
    </p>
  );
}
