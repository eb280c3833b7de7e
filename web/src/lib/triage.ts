import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { queryKeys } from "../api/keys";
import type { Answer, Schema } from "../api/types";

/**
 * What triage adds to a lead, shared by the inbox and Settings → Tags: the statuses of the
 * workflow (docs/dashboard.md, "Working the leads"), the organization's tags and its members (the
 * owners a lead can have).
 */
export { isStatus, STATUS_LABELS, STATUSES, type Status } from "./statuses";

export type Tag = Answer<"listTagsResponse">["tags"][number];

/** The organization's tags (at most 50, one request). */
export const tagsQuery = queryOptions({
  queryKey: queryKeys.tags,
  queryFn: async () => (await unwrap(api.GET("/api/v1/tags"))).data.tags,
  staleTime: 30_000,
});

export type Member = Schema<"Member">;

/** The organization's members, a page of 100 at a time (the API's cursor). */
export const membersQuery = infiniteQueryOptions({
  queryKey: queryKeys.members,
  queryFn: async ({ pageParam }) =>
    (await unwrap(api.GET("/api/v1/team", { params: { query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } } })))
      .data,
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page) => page.nextCursor ?? undefined,
});
