import type { ImportPreview, ImportView, listImports, readImport } from "../../lib/imports";
import { IMPORT_SOURCES } from "../../lib/imports/sources";
import { JOB_STATUSES } from "../../lib/store/shapes";
import * as z from "../../lib/validation";
import { count, id, nullableTimestamp, timestamp } from "./schemas";
import { answers, describes } from "./views";

/** The success bodies of the import routes (docs/api.md, "Imports"), each checked against its view. */

type Started = { import: ImportView };
type Preview = { success: true; data: ImportPreview };

const problem = z.strictObject({ line: count, code: z.string(), message: z.string() });

// lib/imports.ts importView
const importSchema = z.strictObject({
  id,
  formId: id,
  status: z.enum(JOB_STATUSES),
  source: z.string(),
  fileName: z.nullable(z.string()),
  rows: count,
  imported: count,
  duplicates: count,
  spam: count,
  skipped: count,
  problems: z.array(problem).register(z.globalRegistry, { description: "The first 100 problems, by line" }),
  createdBy: id,
  startedAt: timestamp,
  finishedAt: nullableTimestamp,
});

const preview = describes<Preview>()(
  z.strictObject({
    success: z.literal(true),
    data: z.strictObject({
      source: z.enum(IMPORT_SOURCES),
      columns: z.array(
        z.strictObject({ name: z.string(), suggestedField: z.nullable(z.string()), samples: z.array(z.string()) }),
      ),
      mapping: z.record(z.string(), z.nullable(z.string())),
      timeColumn: z.nullable(z.string()),
      rows: count,
      sample: z.array(z.strictObject({ line: count, createdAt: timestamp, data: z.record(z.string(), z.string()) })),
      problems: z.array(problem),
      newFields: z.array(z.string()),
    }),
  }),
);

export const IMPORT_BODIES = {
  "POST /api/v1/forms/{formId}/import": answers<Started>()(z.strictObject({ import: importSchema })),
  "GET /api/v1/forms/{formId}/imports": answers<typeof listImports>()(z.strictObject({ imports: z.array(importSchema) })),
  "GET /api/v1/forms/{formId}/imports/{importId}": answers<typeof readImport>()(z.strictObject({ import: importSchema })),
};

/** The import routes' summaries, codes and the preview's answer (./operations.ts). */
export const IMPORT_OPERATIONS = {
  "POST /api/v1/forms/{formId}/import": {
    summary: "Import another service's export into a form (preview: true answers what it would do, writing nothing)",
    description:
      "The body may be sent `Content-Encoding: gzip`. 202 with the started import; with `preview: true`, 200 with the preview (docs/importing.md).",
    errors: ["INVALID_IMPORT_FILE", "IMPORT_TOO_LARGE", "IMPORT_IN_PROGRESS", "UNSUPPORTED_MEDIA_TYPE"],
    responses: {
      // Under allOf: the 202's body already holds the operation's `<id>Response` name (./document.ts).
      "200": {
        description: "The preview (`preview: true`): nothing written",
        content: { "application/json": { schema: { allOf: [preview] } } },
      },
    },
  },
  "GET /api/v1/forms/{formId}/imports": { summary: "A form's newest imports (at most 20)" },
  "GET /api/v1/forms/{formId}/imports/{importId}": { summary: "Read an import: its progress and problems" },
} as const;
