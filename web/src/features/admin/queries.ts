import { infiniteQueryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";

export type OrganizationSummary = components["schemas"]["OrganizationSummary"];
export type Plan = OrganizationSummary["plan"];

export const adminKeys = { organizations: ["admin", "organizations"] as const };

/** Every organization, newest first, 100 at a time (the API's cursor). */
export const organizationsQuery = infiniteQueryOptions({
  queryKey: adminKeys.organizations,
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
