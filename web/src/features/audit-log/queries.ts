import { infiniteQueryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { operations } from "../../api/schema";
import type { Answer } from "../../api/types";

export type AuditEntry = Answer<"listAuditLogResponse">["entries"][number];
type ListQuery = NonNullable<operations["listAuditLog"]["parameters"]["query"]>;
export type AuditAction = NonNullable<ListQuery["action"]>;

export interface AuditFilters {
  action?: AuditAction | undefined;
  actor?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const PAGE_SIZE = 50;

/** The organization's audit log with the URL's filters, newest first, a page at a time. */
export const auditLogQuery = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: queryKeys.auditLog({ ...filters }),
    queryFn: async ({ pageParam }) => {
      const query: ListQuery = { limit: PAGE_SIZE };
      if (filters.action) query.action = filters.action;
      if (filters.actor) query.actor = filters.actor;
      if (filters.from) query.from = filters.from;
      if (filters.to) query.to = filters.to;
      if (pageParam) query.cursor = pageParam;
      return (await unwrap(api.GET("/api/v1/audit-log", { params: { query } }))).data;
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
