import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { AppError, type ErrorDetail, notFound } from "./errors";
import { findForm } from "./forms";
import { newTimeOrderedId } from "./ids";
import { IMPORT_LIMITS } from "./imports/limits";
import { cleanText, type FileTable, readFile } from "./imports/read-file";
import { type NormalizedRows, normalizeRows } from "./imports/rows";
import { columnRoles, detectSource, fieldKeyProblem, type ImportSource, suggestFields } from "./imports/sources";
import { inferFieldType } from "./intake/mapping";
import { retentionOf } from "./retention";
import { addFormFields } from "./store/form-fields";
import type { Form, FormField } from "./store/forms";
import { storeImportRows } from "./store/import-files";
import { getImportJob, type ImportJob, listImportJobs, putImportJob } from "./store/imports";
import { getSite } from "./store/sites";

/**
 * Importing another service's export into a form (docs/importing.md; docs/api.md, "Imports"):
 * the route reads and checks the whole file, answers a preview, or stores the rows and starts the
 * job (lib/import-job.ts) that writes them.
 */

export interface ImportRequest {
  file: string;
  fileName?: string | undefined;
  source?: ImportSource | undefined;
  mapping?: Record<string, string | null> | undefined;
  timeColumn?: string | null | undefined;
  preview?: boolean | undefined;
}

/** The API's import. */
export const importView = (job: ImportJob) => ({
  id: job.id,
  formId: job.formId,
  status: job.status,
  source: job.source,
  fileName: job.fileName,
  rows: job.rows,
  imported: job.imported,
  duplicates: job.duplicates,
  spam: job.spam,
  skipped: job.skipped,
  problems: job.problems,
  createdBy: job.createdBy,
  startedAt: job.startedAt,
  finishedAt: job.finishedAt,
});

/** The mapping the request asks for, over the suggestions; every named column must be the file's, every key a field key. */
function finalMapping(table: FileTable, request: ImportRequest, suggested: Map<string, string | null>) {
  const details: ErrorDetail[] = [];
  const columns = new Set(table.columns);
  if (request.timeColumn && !columns.has(request.timeColumn)) {
    details.push({ path: "timeColumn", message: "The file has no such column" });
  }
  const mapping = new Map(suggested);
  for (const [column, key] of Object.entries(request.mapping ?? {})) {
    if (!columns.has(column)) {
      details.push({ path: `mapping.${column}`, message: "The file has no such column" });
      continue;
    }
    const problem = key === null ? undefined : fieldKeyProblem(key);
    if (problem) details.push({ path: `mapping.${column}`, message: problem });
    else mapping.set(column, key);
  }
  const byKey = new Map<string, string>();
  for (const [column, key] of mapping) {
    if (key === null) continue;
    const other = byKey.get(key);
    if (other !== undefined) details.push({ path: `mapping.${column}`, message: `${other} is mapped to ${key} already` });
    byKey.set(key, column);
  }
  if (details.length > 0) throw new AppError("VALIDATION_ERROR", "The mapping does not fit the file", details.slice(0, 50));
  return mapping;
}

/** Fields the mapping adds to the form: labelled by their column, typed from the first value. */
function newFieldsOf(form: Form, mapping: Map<string, string | null>, table: FileTable): Record<string, FormField> {
  const fields: Record<string, FormField> = Object.create(null);
  let order = Object.values(form.fields).reduce((max, f) => Math.max(max, f.order), 0);
  for (const [column, key] of mapping) {
    if (key === null || Object.hasOwn(form.fields, key)) continue;
    const first = table.records.find((r) => (r.cells[column] ?? "").trim() !== "")?.cells[column] ?? "";
    fields[key] = { label: column.slice(0, 255), type: inferFieldType(key, first), required: false, order: ++order };
  }
  const room = 500 - Object.keys(form.fields).length;
  if (Object.keys(fields).length > room) {
    throw new AppError("VALIDATION_ERROR", `A form holds at most 500 fields: map at most ${Math.max(0, room)} new ones`, [
      { path: "mapping", message: "Too many new fields" },
    ]);
  }
  return fields;
}

const sampleText = (value: string) => (value.length > 200 ? `${value.slice(0, 200)}…` : value);

/** What a preview answers (docs/api.md, "Imports"). */
function previewOf(
  source: ImportSource,
  table: FileTable,
  mapping: Map<string, string | null>,
  timeColumn: string | null,
  normalized: NormalizedRows,
  newFields: Record<string, FormField>,
) {
  return {
    source,
    columns: table.columns.map((name) => ({
      name,
      suggestedField: mapping.get(name) ?? null,
      samples: table.records
        .map((r) => r.cells[name] ?? "")
        .filter((v) => v.trim() !== "")
        .slice(0, 3)
        .map(sampleText),
    })),
    mapping: Object.fromEntries(mapping),
    timeColumn,
    rows: table.rows,
    sample: normalized.rows.slice(0, 5).map((r) => ({
      line: r.line,
      createdAt: r.createdAt,
      data: Object.fromEntries(Object.entries(r.data).map(([k, v]) => [k, sampleText(v)])),
    })),
    problems: normalized.problems.slice(0, IMPORT_LIMITS.problems),
    newFields: Object.keys(newFields),
  };
}

export type ImportPreview = ReturnType<typeof previewOf>;
export type ImportView = ReturnType<typeof importView>;

/** POST /forms/{formId}/import: a preview (writes nothing), or the job started (202). */
export async function importSubmissions(
  principal: Principal,
  sourceIp: string,
  formId: string,
  request: ImportRequest,
): Promise<{ preview: ImportPreview } | { import: ImportView }> {
  const form = await findForm(principal, formId);
  // `csv` and `json` name the format; a service exports both (docs/importing.md, "Files"), so
  // for a service's name, as without a source, the content decides.
  const format = request.source === "json" || request.source === "csv" ? request.source : undefined;
  const table = readFile(request.file, format);
  const source: ImportSource = request.source ?? detectSource(table);
  const roles = columnRoles(table, source, request.timeColumn);
  const mapping = finalMapping(table, request, suggestFields(table, source, roles, form.fields));
  const now = Date.now();
  const startedAt = new Date(now).toISOString();
  const normalized = normalizeRows({ formId: form.id, table, mapping, roles, retention: retentionOf(form), startedAt, now });
  const newFields = newFieldsOf(form, mapping, table);
  if (request.preview === true) return { preview: previewOf(source, table, mapping, roles.time, normalized, newFields) };
  const site = await getSite(form.orgId, form.siteId);
  if (!site) throw notFound("Form");
  const job: ImportJob = {
    // Time first in the id: a form's imports list newest first (listImportJobs).
    id: newTimeOrderedId("import", now),
    formId: form.id,
    orgId: form.orgId,
    siteId: form.siteId,
    status: "running",
    source,
    fileName: request.fileName === undefined ? null : cleanText(request.fileName).trim() || null,
    rows: table.rows,
    imported: 0,
    duplicates: normalized.duplicates,
    spam: 0,
    skipped: normalized.problems.length,
    problems: normalized.problems.slice(0, IMPORT_LIMITS.problems),
    createdBy: principal.kind === "apiKey" ? principal.keyId : principal.userId,
    startedAt,
    finishedAt: null,
    total: normalized.rows.length,
    cursor: 0,
    passes: 0,
    retention: retentionOf(form),
    referencePrefix: site.referencePrefix,
  };
  // The rows first: the job's INSERT starts the consumer, which reads them. (A request refused
  // below for a running import leaves its object behind, unreferenced, until the bucket's
  // one-day expiry.)
  if (job.total > 0) await storeImportRows(job.orgId, job.formId, job.id, normalized.rows);
  const audit = audited(
    principal,
    sourceIp,
    "submissions.imported",
    { type: "form", id: form.id, name: form.name },
    { importId: job.id, source, rows: table.rows, fileName: job.fileName },
  );
  await putImportJob(job, audit, now);
  // The form's new fields once the import is sure to run, so that a refused one (409) changes
  // nothing. The first pass comes through the stream and the queue, well after this one write;
  // were it ever first, its submissions would hold keys the schema gains a moment later, which
  // every reader already handles (as for a form at its 500-field limit, docs/intake.md).
  if (Object.keys(newFields).length > 0) await addFormFields(form.id, newFields, startedAt);
  return { import: importView(job) };
}

/** GET /forms/{formId}/imports: the newest imports of the form. */
export async function listImports(principal: Principal, formId: string) {
  const form = await findForm(principal, formId);
  const jobs = await listImportJobs(form.id, IMPORT_LIMITS.listed);
  return { imports: jobs.map(importView) };
}

/** GET /forms/{formId}/imports/{importId}: one import of the form, or 404. */
export async function readImport(principal: Principal, formId: string, importId: string) {
  const form = await findForm(principal, formId);
  const job = await getImportJob(form.id, importId);
  if (!job || job.orgId !== principal.orgId) throw notFound("Import");
  return { import: importView(job) };
}
