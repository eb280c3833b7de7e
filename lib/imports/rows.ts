import { sha256Base62 } from "../ids";
import { expiryOf, type Retention } from "../retention";
import { canonicalData } from "../spam/evidence";
import type { ImportRow } from "../store/imports";
import { IMPORT_LIMITS } from "./limits";
import { cleanText, type FileTable, type RowProblem } from "./read-file";
import type { ColumnRoles } from "./sources";

/**
 * A file's records as the submissions they become (docs/importing.md, "Rows"): the mapped values,
 * the original time, the identity that makes a second import of the same row a duplicate. Each
 * row that cannot be one is a problem of its line; the others go on.
 */

export type { ImportRow } from "../store/imports";

export interface NormalizedRows {
  rows: ImportRow[];
  problems: RowProblem[];
  /** Rows the file holds twice (the same identity): stored once, counted as duplicates. */
  duplicates: number;
}

const MIN_TIME = Date.UTC(1990, 0, 1);

/**
 * A cell as a time: ISO 8601 and what `Date.parse` reads (RFC 2822, `2024-03-05 14:22:10`), a
 * time without a zone read as UTC; epoch seconds or milliseconds. Undefined for anything else,
 * and for times before 1990 or more than a day ahead.
 */
export function parseTime(cell: string, now: number): string | undefined {
  const text = cell.trim();
  if (text === "") return undefined;
  let ms: number;
  if (/^\d{9,10}(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else if (/^\d{12,13}$/.test(text)) ms = Number(text);
  else {
    const isoLocal = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
    ms = Date.parse(isoLocal ? `${text.replace(" ", "T")}Z` : dateOnly ? `${text}T00:00:00Z` : text.replace(/ UTC$/, " Z"));
  }
  if (!Number.isFinite(ms) || ms < MIN_TIME || ms > now + 86_400_000) return undefined;
  return new Date(ms).toISOString();
}

const TRUTHY = new Set(["true", "yes", "1", "spam", "y"]);

/** The row's identity: the service's own id when the file has one, else its time and data (and how often that repeats). */
function identityOf(formId: string, sourceId: string | undefined, createdAt: string | null, data: Record<string, string>) {
  return sourceId ? `import\n${formId}\nid\n${sourceId}` : `import\n${formId}\nrow\n${createdAt ?? ""}\n${canonicalData(data)}`;
}

export interface NormalizeInput {
  formId: string;
  table: FileTable;
  /** Column → field key (null: not imported). */
  mapping: Map<string, string | null>;
  roles: ColumnRoles;
  retention: Retention;
  /** The import's start: the time of rows without a time column. */
  startedAt: string;
  now: number;
}

type RowResult = { row: Omit<ImportRow, "id">; identity: string } | { problem: Omit<RowProblem, "line"> };

function normalizeRecord(input: NormalizeInput, cells: Record<string, string>): RowResult {
  const { roles, mapping } = input;
  let createdAt = input.startedAt;
  if (roles.time !== null) {
    const cell = cells[roles.time] ?? "";
    const time = parseTime(cell, input.now);
    if (!time)
      return { problem: { code: "INVALID_TIME", message: `"${cleanText(cell).slice(0, 40)}" in ${roles.time} is not a time` } };
    createdAt = time;
  }
  const data: Record<string, string> = Object.create(null);
  let count = 0;
  for (const [column, key] of mapping) {
    if (key === null) continue;
    const value = cleanText(cells[column] ?? "");
    if (value.trim() === "") continue;
    if ([...value].length > IMPORT_LIMITS.valueLength) {
      return {
        problem: { code: "FIELD_VALUE_TOO_LONG", message: `${column} is longer than ${IMPORT_LIMITS.valueLength} characters` },
      };
    }
    data[key] = value;
    count++;
  }
  if (count === 0) return { problem: { code: "NO_DATA", message: "The row has no value to import" } };
  if (count > IMPORT_LIMITS.fields) {
    return {
      problem: {
        code: "TOO_MANY_FIELDS",
        message: `The row has ${count} values; a submission holds at most ${IMPORT_LIMITS.fields}`,
      },
    };
  }
  if (Buffer.byteLength(JSON.stringify(data)) > IMPORT_LIMITS.storedBytes) {
    return { problem: { code: "ROW_TOO_LARGE", message: `The row's values are more than ${IMPORT_LIMITS.storedBytes} bytes` } };
  }
  const sourceSpam = roles.spam !== null && TRUTHY.has((cells[roles.spam] ?? "").trim().toLowerCase());
  // A row already past the form's retention would be deleted at once: it is not stored.
  const ttl = expiryOf(createdAt, sourceSpam, input.retention);
  if (ttl !== undefined && ttl * 1000 <= input.now) {
    return { problem: { code: "EXPIRED", message: "The row is older than the form's retention keeps submissions" } };
  }
  const sourceId = roles.id === null ? undefined : (cells[roles.id] ?? "").trim() || undefined;
  return {
    row: { line: 0, createdAt, data, sourceSpam },
    identity: identityOf(input.formId, sourceId, roles.time === null ? null : createdAt, data),
  };
}

/** Every record of the table as a row or a problem, in the file's order. */
export function normalizeRows(input: NormalizeInput): NormalizedRows {
  const rows: ImportRow[] = [];
  const problems: RowProblem[] = [...input.table.problems];
  const seen = new Map<string, number>();
  let duplicates = 0;
  for (const record of input.table.records) {
    const result = normalizeRecord(input, record.cells);
    if ("problem" in result) {
      problems.push({ line: record.line, ...result.problem });
      continue;
    }
    // The same identity twice in one file: the service's id repeats (one submission), or rows
    // without an id are alike. With an id, the repeat is a duplicate; without one, each copy is
    // its own row (its occurrence joins its identity), as the file holds it.
    const n = (seen.get(result.identity) ?? 0) + 1;
    seen.set(result.identity, n);
    const isIdentified = result.identity.includes("\nid\n");
    if (n > 1 && isIdentified) {
      duplicates++;
      continue;
    }
    const identity = n > 1 ? `${result.identity}\n#${n}` : result.identity;
    rows.push({ ...result.row, line: record.line, id: `sub_${sha256Base62(identity)}` });
  }
  problems.sort((a, b) => a.line - b.line);
  return { rows, problems, duplicates };
}
