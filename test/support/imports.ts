import { promisify } from "node:util";
import { gzip as gzipCallback } from "node:zlib";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { newId, newTimeOrderedId } from "../../lib/ids";
import type { Form } from "../../lib/store/forms";
import { storeImportRows } from "../../lib/store/import-files";
import { type ImportJob, type ImportRow, importJobItem, toImportJob } from "../../lib/store/imports";
import { keys } from "../../lib/store/keys";
import { type Account, api } from "./api";
import { eventually } from "./eventually";

/** The contact form the import tests import into. */
export const IMPORT_FIELDS: Form["fields"] = {
  name: { label: "Name", type: "name", required: false, order: 1 },
  email: { label: "Email", type: "email", required: true, order: 2 },
  message: { label: "Message", type: "textarea", required: false, order: 3 },
};

/** `n` days ago at `hour`:15 UTC, as ISO text. */
export const daysAgo = (n: number, hour = 10) => {
  const d = new Date(Date.now() - n * 86_400_000);
  d.setUTCHours(hour, 15, 0, 0);
  return d.toISOString();
};

/**
 * Export files as the services write them (docs/importing.md, "Sources": the layouts and how sure
 * we are of each), and the calls of the import API.
 */

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
export const csvLines = (rows: string[][]) => `${rows.map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;

/** Formspree's CSV export: `_date` first, the fields, Formspree's own `_replyto`/`_subject` kept as columns. */
export function formspreeCsv(rows: { date: string; email: string; name: string; message: string }[]) {
  return csvLines([
    ["_date", "email", "name", "message", "_subject"],
    ...rows.map((r) => [r.date, r.email, r.name, r.message, "New lead"]),
  ]);
}

/** Netlify's CSV download: the fields, then its bookkeeping (`form_name`, `ip`, `user_agent`, `referrer`), `created_at` and `id`. */
export function netlifyCsv(rows: { id: string; createdAt: string; name: string; email: string; message: string }[]) {
  return csvLines([
    ["name", "email", "message", "form_name", "ip", "user_agent", "referrer", "created_at", "id"],
    ...rows.map((r) => [
      r.name,
      r.email,
      r.message,
      "contact",
      "203.0.113.9",
      "Mozilla/5.0",
      "https://example.com/",
      r.createdAt,
      r.id,
    ]),
  ]);
}

/**
 * Netlify's submissions API (`GET /forms/{form_id}/submissions`), as its JSON: the submitted
 * fields (and Netlify's `ip`, `user_agent`, `referrer`) in `data`; beside it Netlify's record of
 * the submission: `id`, `number`, `created_at`, copies of the name and email it recognised,
 * `summary`, `body`, `human_fields`, `site_url`, `form_id`, `form_name`.
 */
export function netlifyJson(rows: { id: string; createdAt: string; name: string; email: string; message: string }[]) {
  return JSON.stringify(
    rows.map((r, i) => {
      const [first, ...last] = r.name.split(" ");
      return {
        id: r.id,
        number: i + 1,
        title: null,
        email: r.email,
        name: r.name,
        first_name: first,
        last_name: last.join(" ") || null,
        company: null,
        summary: `<strong>${r.name}</strong> ${r.message}`,
        body: r.message,
        data: {
          name: r.name,
          email: r.email,
          message: r.message,
          ip: "203.0.113.9",
          user_agent: "Mozilla/5.0",
          referrer: "https://example.netlify.app/contact",
        },
        created_at: r.createdAt,
        human_fields: { Name: r.name, Email: r.email, Message: r.message },
        ordered_human_fields: [{ title: "Name", name: "name", value: r.name }],
        site_url: "https://example.netlify.app",
        form_id: "5f1a0c9e8b7d6c0008a1b2c3",
        form_name: "contact",
      };
    }),
    null,
    2,
  );
}

/** Basin's CSV export: `id`, `submitted_at`, the fields, `spam`, `ip`, `user_agent`, `referrer`. */
export function basinCsv(rows: { id: string; submittedAt: string; email: string; message: string; spam?: boolean }[]) {
  return csvLines([
    ["id", "submitted_at", "email", "message", "spam", "ip", "user_agent", "referrer"],
    ...rows.map((r) => [
      r.id,
      r.submittedAt,
      r.email,
      r.message,
      r.spam ? "true" : "false",
      "198.51.100.4",
      "Mozilla/5.0",
      "https://example.com/",
    ]),
  ]);
}

export const importPath = (formId: string) => `/api/v1/forms/${formId}/import`;

/**
 * Compresses off the event loop (zlib's thread pool). A synchronous gzip of megabytes blocks the
 * loop for seconds on a busy machine; a pooled keep-alive socket the gateway closes meanwhile is
 * then written to before its close is seen, and the request fails with "other side closed".
 */
export const gzipAsync = promisify(gzipCallback);

export async function postImport(token: string, formId: string, body: Record<string, unknown>, { gzip = false } = {}) {
  if (!gzip) return api("POST", importPath(formId), { token, body });
  return api("POST", importPath(formId), {
    token,
    rawBody: await gzipAsync(JSON.stringify(body)),
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
  });
}

/** The import once its job has finished (polling GET /imports/{id}, as the dashboard does). */
export async function importFinished(account: Account, formId: string, importId: string, timeoutMs = 60_000) {
  return eventually(
    `import ${importId} finished`,
    async () => {
      const res = await api("GET", `/api/v1/forms/${formId}/imports/${importId}`, { token: account.token });
      return res.body?.data?.import?.status === "finished" ? res.body.data.import : undefined;
    },
    { timeoutMs, intervalMs: 200 },
  );
}

/** `count` rows of a contact form as the import route stores them for its job: lines from 2, dated 1 to 20 days ago. */
export const importRows = (count: number): ImportRow[] =>
  Array.from({ length: count }, (_, i) => ({
    line: i + 2,
    id: newId("submission"),
    createdAt: daysAgo(1 + (i % 20)),
    data: { email: `row${i}@example.com`, name: `Row ${i}` },
    sourceSpam: false,
  }));

/**
 * An import of `rows` into `form` whose passes the test runs itself (lib/import-job.ts's
 * runImportPass): its rows stored as the route stores them, its job item written without its
 * `type`, so the stream's filter (infra/intake-filter.ts) passes no change of it to the stack's
 * consumer, and each pass's record on the job is the real conditional one.
 */
export async function unqueuedImport(account: Account, form: Form, rows: ImportRow[]): Promise<ImportJob> {
  const job = importJobOf(account, form, rows);
  await storeImportRows(job.orgId, job.formId, job.id, rows);
  const { type: _unqueued, ...item } = importJobItem(job);
  await db().send(new PutCommand({ TableName: tableName(), Item: item }));
  return job;
}

/** The job the import route would write for `rows` (the form's retention kept forever, spam 30 days), at its start. */
export function importJobOf(account: Account, form: Form, rows: ImportRow[]): ImportJob {
  return {
    id: newTimeOrderedId("import", Date.now()),
    formId: form.id,
    orgId: form.orgId,
    siteId: form.siteId,
    status: "running",
    source: "csv",
    fileName: "leads.csv",
    rows: rows.length,
    imported: 0,
    duplicates: 0,
    spam: 0,
    skipped: 0,
    problems: [],
    createdBy: account.userId,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    total: rows.length,
    cursor: 0,
    passes: 0,
    retention: { inboxDays: null, spamDays: 30 },
    referencePrefix: "TIMP",
  };
}

/** The import's job as stored now (read strongly consistent). */
export async function storedImportJob(job: Pick<ImportJob, "formId" | "id">): Promise<ImportJob> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.importJob(job.formId, job.id), ConsistentRead: true }),
  );
  if (!out.Item) throw new Error(`import ${job.id} is not stored`);
  return toImportJob(out.Item);
}
