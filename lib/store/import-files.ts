import { gunzipSync, gzipSync } from "node:zlib";
import { bucket, s3 } from "./exports";
import type { ImportRow } from "./imports";

/**
 * An import's rows, as the route read them, in the exports bucket (infra/exports.ts) under
 * `imports/<orgId>/<formId>/<importId>/<n>.ndjson.gz`: gzipped NDJSON, IMPORT_CHUNK_ROWS rows per
 * object, so a pass of the job reads one small object, never the whole file. The bucket's
 * lifecycle deletes them after a day (an import runs minutes).
 */
export const IMPORT_PREFIX = "imports/";
export const IMPORT_CHUNK_ROWS = 1_000;

export const importObjectKey = (orgId: string, formId: string, importId: string, chunk: number) =>
  `${IMPORT_PREFIX}${orgId}/${formId}/${importId}/${chunk}.ndjson.gz`;

/** Writes the rows in chunks, side by side (a few at a time). */
export async function storeImportRows(orgId: string, formId: string, importId: string, rows: readonly ImportRow[]) {
  const chunks: ImportRow[][] = [];
  for (let at = 0; at < rows.length; at += IMPORT_CHUNK_ROWS) chunks.push(rows.slice(at, at + IMPORT_CHUNK_ROWS));
  const name = bucket();
  for (let at = 0; at < chunks.length; at += 8) {
    await Promise.all(
      chunks.slice(at, at + 8).map((chunk, i) => {
        const body = gzipSync(chunk.map((row) => JSON.stringify(row)).join("\n"));
        return s3().putObject(name, importObjectKey(orgId, formId, importId, at + i), body, "application/x-ndjson");
      }),
    );
  }
}

/** One chunk's rows, in the file's order. */
export async function readImportRows(orgId: string, formId: string, importId: string, chunk: number): Promise<ImportRow[]> {
  const bytes = await s3().getObject(bucket(), importObjectKey(orgId, formId, importId, chunk));
  const text = gunzipSync(bytes).toString("utf8");
  return text === "" ? [] : text.split("\n").map((line) => JSON.parse(line) as ImportRow);
}
