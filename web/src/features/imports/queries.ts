import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { paths } from "../../api/schema";
import type { Answer } from "../../api/types";

/** The file kinds the import reads (the API's `source`); undefined lets it detect the kind. */
export type ImportSource = "formspree" | "basin" | "netlify" | "csv" | "json";

export const IMPORT_SOURCE_LABELS: Record<ImportSource, string> = {
  // A service's export is CSV or JSON, the file's content decides (docs/importing.md, "Files").
  formspree: "Formspree export",
  basin: "Basin export",
  netlify: "Netlify export",
  csv: "CSV with a header row",
  json: "JSON array of objects",
};

/** The import route's answers: 200 with the preview, 202 with the started job. */
type ImportAnswers = paths["/api/v1/forms/{formId}/import"]["post"]["responses"];

/** What an import would do, written nowhere yet (`preview: true`). */
export type ImportPreview = ImportAnswers[200]["content"]["application/json"]["data"];

/** An import job (docs/importing.md). */
export type Import = Answer<"getImportResponse">["import"];
export type ImportProblem = Import["problems"][number];

/** An import's file kind in words (the API answers it as a string). */
export const sourceLabel = (source: string): string => IMPORT_SOURCE_LABELS[source as ImportSource] ?? source;

/** What the person chose on the page: the file, and what they changed of the detected reading. */
export interface ImportRequest {
  file: string;
  fileName: string;
  source?: ImportSource | undefined;
  mapping?: Record<string, string | null> | undefined;
  timeColumn?: string | null | undefined;
}

/** The request's body, gzipped when the browser can (the API takes `Content-Encoding: gzip`; the limit is on what is sent). */
async function encoded(body: object): Promise<{ body: BodyInit; headers: Record<string, string> }> {
  const json = JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (typeof CompressionStream === "undefined") return { body: json, headers };
  const stream = new Blob([json]).stream().pipeThrough(new CompressionStream("gzip"));
  return { body: await new Response(stream).blob(), headers: { ...headers, "content-encoding": "gzip" } };
}

/**
 * POST /v1/forms/{formId}/import. The typed client sends JSON only, so this one request is made
 * with fetch (same origin, the session cookie), and its answer read as every other's.
 */
async function postImport<T>(formId: string, request: ImportRequest & { preview: boolean }): Promise<T> {
  const { body, headers } = await encoded(request);
  return unwrap(
    fetch(`/api/v1/forms/${encodeURIComponent(formId)}/import`, {
      method: "POST",
      credentials: "same-origin",
      headers,
      body,
    }).then(async (response) => {
      const json: unknown = await response.json().catch(() => undefined);
      return response.ok ? { data: json as { data: T }, response } : { error: json, response };
    }),
  ).then((r) => r.data);
}

export const previewImport = (formId: string, request: ImportRequest) =>
  postImport<ImportPreview>(formId, { ...request, preview: true });

export const startImport = (formId: string, request: ImportRequest) =>
  postImport<ImportAnswers[202]["content"]["application/json"]["data"]>(formId, { ...request, preview: false }).then(
    (r) => r.import,
  );

/** The form's imports, newest first (at most 20). */
export const importsQuery = (formId: string) =>
  queryOptions({
    queryKey: queryKeys.imports.ofForm(formId),
    queryFn: async () => (await unwrap(api.GET("/api/v1/forms/{formId}/imports", { params: { path: { formId } } }))).data.imports,
  });

/** One import, read every second while it runs. */
export const importQuery = (formId: string, importId: string) =>
  queryOptions({
    queryKey: queryKeys.imports.one(formId, importId),
    queryFn: async () =>
      (await unwrap(api.GET("/api/v1/forms/{formId}/imports/{importId}", { params: { path: { formId, importId } } }))).data
        .import,
    refetchInterval: (query) => (query.state.data?.status === "finished" ? false : 1000),
  });
