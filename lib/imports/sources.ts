import type { FormField } from "../store/forms";
import { IMPORT_LIMITS } from "./limits";
import type { FileTable } from "./read-file";

/**
 * What each service's export looks like (docs/importing.md, "Sources", with how sure we are of
 * each layout): the columns that name it, its time and id columns, and the columns that are the
 * service's bookkeeping rather than the sender's data (suggested "don't import").
 */

export const IMPORT_SOURCES = ["formspree", "basin", "netlify", "csv", "json"] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

interface SourceLayout {
  /** Whether a file's columns (compared loosely) look like this service's export. */
  detect: (columns: ReadonlySet<string>) => boolean;
  /** Time columns, most likely first (loose names). */
  time: readonly string[];
  /** The service's own submission id (loose names): the row's identity, so a second import stores it once. */
  id: readonly string[];
  /** The service's verdict that the row is spam (loose names). */
  spam: readonly string[];
  /** The service's bookkeeping columns (loose names), never suggested as data. */
  meta: readonly string[];
}

/** Names compare without case, spaces or punctuation: `Created At` ~ `created_at` ~ `createdAt`. */
export const loose = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

const GENERIC_TIME = ["createdat", "date", "submittedat", "timestamp", "time", "datetime", "receivedat", "submitted", "created"];
const GENERIC_ID = ["id", "submissionid", "entryid", "responseid"];
const GENERIC_SPAM = ["spam", "isspam"];
/** Inlet's own export's columns that are no data (lib/export.ts). */
const INLET_META = [
  "referenceid",
  "expiresat",
  "formid",
  "siteid",
  "webhookid",
  "releasedat",
  "updatedat",
  "status",
  "ownerid",
  "notecount",
  "valuesdeletedat",
];

export const SOURCE_LAYOUTS: Record<ImportSource, SourceLayout> = {
  formspree: {
    detect: (c) => c.has("date") && ["replyto", "gotcha", "subject", "next"].some((n) => c.has(n)),
    time: ["date", "createdat", "submittedat"],
    id: ["id", "submissionid"],
    spam: ["spam"],
    meta: ["gotcha", "next", "subject", "format", "language", "cc"],
  },
  basin: {
    detect: (c) => c.has("submittedat") || (c.has("createdat") && c.has("spam") && c.has("useragent") && !c.has("formname")),
    time: ["submittedat", "createdat", "date"],
    id: ["id", "submissionid"],
    spam: ["spam", "isspam"],
    meta: ["ip", "useragent", "referrer", "referer", "gotcha", "formid"],
  },
  netlify: {
    detect: (c) =>
      c.has("createdat") && ["formname", "siteurl", "humanfields", "orderedhumanfields", "formid"].some((n) => c.has(n)),
    time: ["createdat"],
    id: ["id"],
    spam: [],
    meta: [
      "number",
      "formid",
      "formname",
      "siteurl",
      "ip",
      "useragent",
      "referrer",
      "summary",
      "title",
      "body",
      "humanfields",
      "orderedhumanfields",
      "botfield",
      "formname",
    ],
  },
  csv: { detect: () => true, time: GENERIC_TIME, id: GENERIC_ID, spam: GENERIC_SPAM, meta: INLET_META },
  json: { detect: () => true, time: GENERIC_TIME, id: GENERIC_ID, spam: GENERIC_SPAM, meta: INLET_META },
};

/** The service a file's columns name; a file that names none is a plain CSV or JSON file. */
export function detectSource(table: FileTable): ImportSource {
  const names = new Set(table.columns.map(loose));
  for (const source of ["netlify", "formspree", "basin"] as const) {
    if (SOURCE_LAYOUTS[source].detect(names)) return source;
  }
  return table.format;
}

/** The first column whose loose name is among `wanted` (in `wanted`'s order). */
export function findColumn(columns: readonly string[], wanted: readonly string[]): string | undefined {
  for (const name of wanted) {
    const found = columns.find((c) => loose(c) === name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Names that would reach an object's prototype (as lib/form-inputs.ts refuses them). */
const FORBIDDEN_SEGMENTS = new Set(["__proto__", "constructor", "prototype"]);

/** Whether `key` is a field key intake would store data under (lib/form-inputs.ts's rule). */
export function fieldKeyProblem(key: string): string | undefined {
  if (key.trim() !== key || key.length === 0) return "A field key is 1-100 characters without surrounding spaces";
  if ([...key].length > IMPORT_LIMITS.fieldNameLength)
    return `A field key is at most ${IMPORT_LIMITS.fieldNameLength} characters`;
  if (key.startsWith("_")) return "A field key cannot start with _ (reserved for control fields)";
  if (key.split(".").some((s) => FORBIDDEN_SEGMENTS.has(s))) return "This field key is reserved";
  return undefined;
}

/** A column's name as a field key: lower case, runs of other characters as `_`, no leading `_`. */
export function slugOf(column: string, index: number): string {
  const slug = [
    ...column
      .normalize("NFKC")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, "_")
      .replace(/^_+|_+$/g, ""),
  ]
    .slice(0, IMPORT_LIMITS.fieldNameLength - 6)
    .join("");
  if (slug === "") return `field_${index + 1}`;
  return FORBIDDEN_SEGMENTS.has(slug) ? `${slug}_field` : slug;
}

export interface ColumnRoles {
  time: string | null;
  id: string | null;
  spam: string | null;
}

/** The source's time, id and spam columns in this file (the time column as the request chose it). */
export function columnRoles(table: FileTable, source: ImportSource, timeColumn: string | null | undefined): ColumnRoles {
  const layout = SOURCE_LAYOUTS[source];
  return {
    time: timeColumn === undefined ? (findColumn(table.columns, layout.time) ?? null) : timeColumn,
    id: findColumn(table.columns, layout.id) ?? null,
    spam: findColumn(table.columns, layout.spam) ?? null,
  };
}

/**
 * The suggested field of each column: the form's field whose key, or label, is the column's name
 * (loosely); else the column's slug; null (don't import) for the time, id and spam columns, the
 * service's bookkeeping, and a JSON export's values outside its entries' `data` objects. Two columns never get the same field: a later one is numbered.
 */
export function suggestFields(
  table: FileTable,
  source: ImportSource,
  roles: ColumnRoles,
  fields: Record<string, FormField>,
): Map<string, string | null> {
  const meta = new Set(SOURCE_LAYOUTS[source].meta);
  const byLoose = new Map<string, string>();
  for (const [key, field] of Object.entries(fields)) {
    if (!byLoose.has(loose(key))) byLoose.set(loose(key), key);
    if (!byLoose.has(loose(field.label))) byLoose.set(loose(field.label), key);
  }
  const taken = new Set<string>();
  const out = new Map<string, string | null>();
  table.columns.forEach((column, i) => {
    const name = loose(column);
    const role = column === roles.time || column === roles.id || column === roles.spam;
    if (role || meta.has(name) || name === "" || table.envelope.has(column)) {
      out.set(column, null);
      return;
    }
    const base = Object.hasOwn(fields, column) ? column : (byLoose.get(name) ?? slugOf(column, i));
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
    taken.add(key);
    out.set(column, key);
  });
  return out;
}
