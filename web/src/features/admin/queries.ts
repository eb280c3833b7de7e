import { infiniteQueryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Schema } from "../../api/types";

export type OrganizationSummary = Schema<"OrganizationSummary">;
export type Plan = OrganizationSummary["plan"];

/** Every organization, newest first, 100 at a time (the API's cursor). */
export const organizationsQuery = infiniteQueryOptions({
  queryKey: queryKeys.organizations,
  queryFn: async ({ pageParam }) =>
    (
      await unwrap(
        api.GET("/api/v1/admin/organizations", {
          params: { query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      )
    ).data,
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (page) => page.nextCursor ?? undefined,
});

export const changePlan = (orgId: string, plan: Plan) =>
  unwrap(api.PUT("/api/v1/admin/organizations/{orgId}", { params: { path: { orgId } }, body: { plan } })).then(
    (r) => r.data.organization,
  );
