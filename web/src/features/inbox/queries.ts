import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Schema } from "../../api/types";
import type { Status } from "../../lib/triage";

/** A submission as the API answers it (the list's and the detail's items). */
export type Submission = Schema<"Submission">;

export interface ListFilters {
  q?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** The inbox's triage filters (docs/triage.md): a status, an owner (`me`, `none` or a userId), a tag id, unread only. */
  status?: Status | undefined;
  owner?: string | undefined;
  tag?: string | undefined;
  unread?: boolean | undefined;
}

export type Folder = "inbox" | "spam";

/** Rows per page: a person reads a screenful at a time, and no request reads the whole form. */
export const PAGE_SIZE = 50;

/** The triage filters as the list's query parameters (the inbox only: the API refuses them with spam). */
const triageQuery = (filters: ListFilters) => ({
  ...(filters.status ? { status: filters.status } : {}),
  ...(filters.owner ? { owner: filters.owner } : {}),
  ...(filters.tag ? { tag: filters.tag } : {}),
  ...(filters.unread ? { unread: "true" as const } : {}),
});

const listQuery = (folder: Folder, filters: ListFilters, cursor?: string) => ({
  spam: folder === "spam" ? ("true" as const) : ("false" as const),
  limit: PAGE_SIZE,
  ...(filters.q ? { q: filters.q } : {}),
  ...(filters.from ? { from: filters.from } : {}),
  ...(filters.to ? { to: filters.to } : {}),
  ...(folder === "inbox" ? triageQuery(filters) : {}),
  ...(cursor ? { cursor } : {}),
});

const fetchPage = async (formId: string, folder: Folder, filters: ListFilters, cursor?: string) =>
  (
    await unwrap(
      api.GET("/api/v1/forms/{formId}/submissions", { params: { path: { formId }, query: listQuery(folder, filters, cursor) } }),
    )
  ).data;

/** The folder's submissions, newest first, a page at a time (the API's cursor). */
export const submissionsQuery = (formId: string, folder: Folder, filters: ListFilters) =>
  infiniteQueryOptions({
    queryKey: queryKeys.submissions.list(formId, folder, filters),
    queryFn: ({ pageParam }) => fetchPage(formId, folder, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** The newest page alone, polled to tell the person that new submissions arrived. */
export const newestQuery = (formId: string, folder: Folder, filters: ListFilters) =>
  queryOptions({
    queryKey: queryKeys.submissions.newest(formId, folder, filters),
    queryFn: () => fetchPage(formId, folder, filters),
    refetchInterval: 10_000,
  });

export const submissionQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.submissions.one(id),
    queryFn: async () =>
      (await unwrap(api.GET("/api/v1/submissions/{submissionId}", { params: { path: { submissionId: id } } }))).data.submission,
  });

export const setSpam = (id: string, isSpam: boolean) =>
  unwrap(api.PUT("/api/v1/submissions/{submissionId}", { params: { path: { submissionId: id } }, body: { isSpam } }));

export const deleteSubmission = (id: string) =>
  unwrap(api.DELETE("/api/v1/submissions/{submissionId}", { params: { path: { submissionId: id } } }));

export const bulkDelete = (ids: string[]) => unwrap(api.POST("/api/v1/submissions/bulk-delete", { body: { ids } }));

/** The export of what the view shows, as a file the browser downloads (the API answers the file itself). */
export function exportUrl(formId: string, folder: Folder, filters: ListFilters, format: "csv" | "json"): string {
  const query = new URLSearchParams({ format, spam: folder === "spam" ? "true" : "false" });
  for (const key of ["q", "from", "to"] as const) {
    const value = filters[key];
    if (value) query.set(key, value);
  }
  return `/api/v1/forms/${encodeURIComponent(formId)}/submissions/export?${query}`;
}
