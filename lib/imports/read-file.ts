import { type CsvError, parse } from "csv-parse/sync";
import { AppError } from "../errors";
import { IMPORT_LIMITS } from "./limits";

/**
 * Reading an export file into a table of columns and records (docs/importing.md, "Files"). CSV
 * through csv-parse (its sync API with `info` and `raw`: each record's physical line); JSON as
 * an array of objects, or an object whose `submissions` is one (Inlet's own export). Nothing
 * here knows a service: ./sources.ts reads the columns.
 */

/** A row's problem: its line, a code (docs/importing.md, "Problems") and words. */
export interface RowProblem {
  line: number;
  code: string;
  message: string;
}

/** One record: its physical line (CSV: where the record starts, the header is line 1; JSON: index + 1) and its cells by column. */
export interface FileRecord {
  line: number;
  cells: Record<string, string>;
}

export interface FileTable {
  format: "csv" | "json";
  columns: string[];
  records: FileRecord[];
  /** Records that could not be read at all, by line. */
  problems: RowProblem[];
  /** Data rows of the file: read records and unreadable ones. */
  rows: number;
  /**
   * JSON: columns that only ever came from outside the `data` object of an entry that has one:
   * the exporting service's record of the submission (its time, id, number, copies of fields),
   * never the sender's data (./sources.ts suggests them "don't import"). Empty for CSV.
   */
  envelope: ReadonlySet<string>;
}

export const invalidFile = (message: string) => new AppError("INVALID_IMPORT_FILE", message);

const tooLarge = () =>
  new AppError("IMPORT_TOO_LARGE", `A file holds at most ${IMPORT_LIMITS.rows} rows: split it and import each part`);

/** A null-prototype map: a column named `__proto__` stays an ordinary key. */
const cellMap = (): Record<string, string> => Object.create(null);

/** NUL and the other C0/C1 control characters but tab, line feed and carriage return: never stored. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
export const cleanText = (value: string) => value.replace(CONTROL, "");

/** Column names: trimmed, cleaned, a blank one named by its place, repeats numbered, so each is unique. */
function uniqueColumns(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((raw, i) => {
    const base = cleanText(raw).trim().slice(0, 200) || `column ${i + 1}`;
    let name = base;
    for (let n = 2; seen.has(name); n++) name = `${base} (${n})`;
    seen.add(name);
    return name;
  });
}

function checkColumns(count: number) {
  if (count > IMPORT_LIMITS.columns) {
    throw invalidFile(`The file has ${count} columns; an import reads at most ${IMPORT_LIMITS.columns}`);
  }
}

/** The delimiter the header line uses most: comma, semicolon (spreadsheets in many locales) or tab. */
function delimiterOf(text: string): string {
  const firstLine = text.slice(0, Math.min(text.length, 64 * 1024)).split("\n", 1)[0] ?? "";
  const counts = [",", ";", "\t"].map((d) => [d, firstLine.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ",";
}

/** Where a record starts: the line it ends on, less the line breaks inside it. */
const startLine = (endLine: number, raw: string | undefined) => {
  const breaks = (raw ?? "").replace(/\r?\n$/, "").split("\n").length - 1;
  return Math.max(1, endLine - breaks);
};

/** The line of a character offset (1-based). */
const lineAt = (text: string, offset: number) => text.slice(0, offset).split("\n").length;

const CSV_ERRORS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: "A quoted cell is never closed (the rest of the file is part of this row)",
  CSV_INVALID_CLOSING_QUOTE: "A quote closes a cell in the middle of it",
  CSV_MAX_RECORD_SIZE: `The row is longer than ${IMPORT_LIMITS.recordChars} characters`,
};

export function readCsv(text: string): FileTable {
  const problems: RowProblem[] = [];
  let skipped = 0;
  let records: { record: string[]; info: { lines: number }; raw: string }[];
  try {
    records = parse(text, {
      bom: true,
      delimiter: delimiterOf(text),
      info: true,
      raw: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      max_record_size: IMPORT_LIMITS.recordChars,
      on_skip: (error: CsvError | undefined, raw: string | undefined) => {
        skipped++;
        // An unclosed quote takes the rest of the file, whose line count csv-parse reports
        // inconsistently there: the record starts where that rest does.
        const rest = error?.code === "CSV_QUOTE_NOT_CLOSED" && raw && text.endsWith(raw) ? text.length - raw.length : -1;
        const line = rest >= 0 ? lineAt(text, rest) : startLine(error?.lines ?? 0, raw);
        problems.push({
          line,
          code: "INVALID_ROW",
          message: CSV_ERRORS[error?.code ?? ""] ?? "The row is not valid CSV",
        });
        return undefined;
      },
    }) as unknown as { record: string[]; info: { lines: number }; raw: string }[];
  } catch (error) {
    throw invalidFile(`The file is not CSV that can be read: ${(error as Error).message.slice(0, 200)}`);
  }
  const [header, ...body] = records;
  if (!header || header.record.every((cell) => cell.trim() === "")) throw invalidFile("The file has no header row");
  checkColumns(header.record.length);
  if (body.length + skipped > IMPORT_LIMITS.rows) throw tooLarge();
  const columns = uniqueColumns(header.record);
  const out: FileRecord[] = [];
  for (const { record, info, raw } of body) {
    const line = startLine(info.lines, raw);
    if (record.length !== columns.length) {
      problems.push({
        line,
        code: "WRONG_COLUMN_COUNT",
        message: `The row has ${record.length} cells; the header has ${columns.length}`,
      });
      continue;
    }
    const cells = cellMap();
    columns.forEach((name, i) => {
      cells[name] = record[i] ?? "";
    });
    out.push({ line, cells });
  }
  problems.sort((a, b) => a.line - b.line);
  return { format: "csv", columns, records: out, problems, rows: body.length + skipped, envelope: new Set() };
}

/** A JSON value as a cell: text as it is, numbers and booleans as text, a list joined; objects are not cells. */
function jsonCell(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "";
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) return value.join(", ");
  return undefined;
}

/**
 * A JSON export's object as cells: its own scalar values, and those of its `data` object (Inlet's
 * and Netlify's exports keep the submitted fields there), which win over a top-level name. With
 * the names of its `data` object, or undefined when it has none.
 */
function jsonCells(item: Record<string, unknown>): { cells: Record<string, string>; dataKeys: Set<string> | undefined } {
  const cells = cellMap();
  for (const [key, value] of Object.entries(item)) {
    if (key === "data") continue;
    const cell = jsonCell(value);
    if (cell !== undefined) cells[key] = cell;
  }
  const data = item.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return { cells, dataKeys: undefined };
  const dataKeys = new Set<string>();
  for (const [key, value] of Object.entries(data)) {
    const cell = jsonCell(value);
    if (cell === undefined) continue;
    cells[key] = cell;
    dataKeys.add(key);
  }
  return { cells, dataKeys };
}

export function readJson(text: string): FileTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    throw invalidFile("The file is not valid JSON");
  }
  const list = Array.isArray(parsed)
    ? parsed
    : typeof parsed === "object" && parsed !== null && Array.isArray((parsed as { submissions?: unknown }).submissions)
      ? (parsed as { submissions: unknown[] }).submissions
      : undefined;
  if (!list) throw invalidFile("A JSON file is an array of objects, or an object whose `submissions` is one");
  if (list.length > IMPORT_LIMITS.rows) throw tooLarge();
  const problems: RowProblem[] = [];
  const records: FileRecord[] = [];
  const seen = new Set<string>();
  const columns: string[] = [];
  // Column names seen outside a `data` object (of an entry that has one), and inside one.
  const outside = new Set<string>();
  const inside = new Set<string>();
  list.forEach((item, index) => {
    const line = index + 1;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      problems.push({ line, code: "NOT_AN_OBJECT", message: "The entry is not an object" });
      return;
    }
    const { cells: raw, dataKeys } = jsonCells(item as Record<string, unknown>);
    const cells = cellMap();
    for (const [key, value] of Object.entries(raw)) {
      const name = cleanText(key).trim().slice(0, 200);
      if (name === "") continue;
      if (dataKeys) (dataKeys.has(key) ? inside : outside).add(name);
      if (!seen.has(name)) {
        seen.add(name);
        columns.push(name);
        checkColumns(columns.length);
      }
      cells[name] = value;
    }
    records.push({ line, cells });
  });
  if (columns.length === 0) throw invalidFile("The file's entries have no values to import");
  const envelope = new Set([...outside].filter((name) => !inside.has(name)));
  return { format: "json", columns, records, problems, rows: list.length, envelope };
}

/** A file as JSON when it starts like JSON, else as CSV (or as the source says). */
export function readFile(text: string, format?: "csv" | "json"): FileTable {
  const looksJson = /^[\uFEFF\s]*[[{]/.test(text.slice(0, 1024));
  if (text.trim() === "") throw invalidFile("The file is empty");
  return (format ?? (looksJson ? "json" : "csv")) === "json" ? readJson(text) : readCsv(text);
}
