import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { fieldList, findForm } from "./forms";
import { RawResponse } from "./http/response";
import { nowIso, randomBase62 } from "./ids";
import { expiresAtOf } from "./retention";
import { putAuditEntry } from "./store/audit-log";
import { exportObjectKey, storeExport } from "./store/exports";
import type { Form } from "./store/forms";
import { boundedValues } from "./store/forward-markers";
import { everyFormSubmission, type StoredSubmission } from "./store/submissions";
import { type ListFilters, submissionQuery, submissionView } from "./submissions";

/**
 * Largest file answered inline, measured as the Lambda result API Gateway receives (the JSON of
 * statusCode, headers and the body as a string, so the file's text is escaped once). Lambda
 * caps a synchronous response at 6 MB
 * (https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html); anything larger is
 * written to S3 and answered with a download link.
 */
export const INLINE_EXPORT_MAX_BYTES = 4 * 1024 * 1024;

export type ExportFormat = "csv" | "json";

/** Spreadsheet formula triggers (OWASP "CSV injection"): such a cell gets a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: formula triggers neutralized, then RFC 4180 quoting where needed. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180 records end with CRLF. */
export const csvRow = (cells: string[]) => `${cells.map(csvCell).join(",")}\r\n`;

/** A UTF-8 byte order mark, so spreadsheet programs read non-ASCII text as UTF-8. */
const BOM = "\uFEFF";

const cellText = (value: string | string[] | undefined) =>
  value === undefined ? "" : Array.isArray(value) ? value.join(", ") : value;

/**
 * The CSV file: a header of the form's fields (labels, in schema order), then any data keys the
 * schema no longer (or never) had, so no collected value is left out, then referenceId, createdAt,
 * spam and expiresAt (when the form's retention deletes it; empty: kept until deleted).
 */
export function toCsv(form: Pick<Form, "fields">, submissions: StoredSubmission[]): string {
  const fields = fieldList(form.fields);
  const known = new Set(fields.map((f) => f.key));
  const extra: string[] = [];
  for (const s of submissions) {
    for (const key of Object.keys(s.data)) {
      if (!known.has(key)) {
        known.add(key);
        extra.push(key);
      }
    }
  }
  const labelCount = new Map<string, number>();
  for (const f of fields) labelCount.set(f.label, (labelCount.get(f.label) ?? 0) + 1);
  const header = [
    ...fields.map((f) => ((labelCount.get(f.label) ?? 0) > 1 ? `${f.label} (${f.key})` : f.label)),
    ...extra,
    "referenceId",
    "createdAt",
    "spam",
    "expiresAt",
  ];
  const keys = [...fields.map((f) => f.key), ...extra];
  const lines = [BOM + csvRow(header)];
  for (const s of submissions) {
    lines.push(
      csvRow([
        ...keys.map((k) => cellText(Object.hasOwn(s.data, k) ? s.data[k] : undefined)),
        s.referenceId,
        s.createdAt,
        String(s.isSpam),
        expiresAtOf(s.ttl) ?? "",
      ]),
    );
  }
  return lines.join("");
}

/** The JSON export's file (the OpenAPI document's `ExportFile`, checked against this type by tsc). */
export interface ExportFile {
  form: { id: string; name: string; fields: ReturnType<typeof fieldList> };
  exportedAt: string;
  submissions: ReturnType<typeof submissionView>[];
}

export function toJson(form: Form, submissions: StoredSubmission[], exportedAt: string): string {
  return JSON.stringify({
    form: { id: form.id, name: form.name, fields: fieldList(form.fields) },
    exportedAt,
    submissions: submissions.map(submissionView),
  } satisfies ExportFile);
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60) || "form";

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/**
 * Exports a form's submissions with the list's filters, newest first. The file is answered
 * inline (`delivery: "inline"`, `content` is the file's text) while the whole response stays
 * under INLINE_EXPORT_MAX_BYTES; otherwise it is written to the export bucket and answered with
 * a presigned link (`delivery: "link"`, `url`, `expiresAt`).
 */
export async function exportSubmissions(
  principal: Principal,
  sourceIp: string,
  formId: string,
  format: ExportFormat,
  filters: ListFilters,
) {
  const form = await findForm(principal, formId);
  const submissions: StoredSubmission[] = [];
  // A forward-only submission past its bound is exported without values, as the API shows it.
  for await (const page of everyFormSubmission(form.id, submissionQuery(filters))) {
    submissions.push(...page.items.map((s) => boundedValues(s)));
  }
  const exportedAt = nowIso();
  const content = format === "csv" ? toCsv(form, submissions) : toJson(form, submissions, exportedAt);
  const bytes = Buffer.byteLength(content);
  const filename = `${slug(form.name)}-submissions-${exportedAt.slice(0, 10)}.${format}`;
  const summary = { format, rows: submissions.length, bytes, filename, contentType: CONTENT_TYPES[format] };
  // An export writes nothing in the table: its entry is put on its own once the file exists
  // (docs/privacy.md, "Audit log"), before the answer that hands it over.
  const recordExport = () =>
    putAuditEntry(
      audited(
        principal,
        sourceIp,
        "submissions.exported",
        { type: "form", id: form.id, name: form.name },
        {
          rows: submissions.length,
          format,
          spam: filters.spam,
          from: filters.from ?? null,
          to: filters.to ?? null,
          q: filters.q ?? null,
        },
      ),
    );
  if (bytes <= INLINE_EXPORT_MAX_BYTES && Buffer.byteLength(JSON.stringify(content)) <= INLINE_EXPORT_MAX_BYTES) {
    await recordExport();
    return { ...summary, delivery: "inline" as const, content };
  }
  const key = exportObjectKey(principal.orgId, form.id, exportedAt.replace(/[:.]/g, "-"), randomBase62(12), format);
  const link = await storeExport(key, Buffer.from(content), CONTENT_TYPES[format], filename);
  await recordExport();
  return { ...summary, delivery: "link" as const, ...link };
}

type ExportResult = Awaited<ReturnType<typeof exportSubmissions>>;

/**
 * The export as a person opens it (docs/api.md, "Export"): the file itself, with
 * `Content-Disposition: attachment` and its name, so `curl -OJ` and a browser download both save
 * a .csv or .json file; a file too large for a Lambda answer is a 303 to its short-lived link
 * (S3 names the download the same way). The metadata rides in headers for the API clients that
 * want it.
 */
export function exportAnswer(result: ExportResult): RawResponse {
  const metadata = {
    "x-inlet-export-rows": String(result.rows),
    "x-inlet-export-bytes": String(result.bytes),
    "x-inlet-export-filename": result.filename,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
  if (result.delivery === "link") {
    return new RawResponse({
      statusCode: 303,
      headers: { ...metadata, location: result.url, "x-inlet-export-expires": result.expiresAt },
      body: "",
    });
  }
  return new RawResponse({
    statusCode: 200,
    headers: {
      ...metadata,
      "content-type": result.contentType,
      "content-disposition": `attachment; filename="${result.filename}"`,
    },
    body: result.content,
  });
}
