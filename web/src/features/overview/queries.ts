import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Schema } from "../../api/types";

export type Overview = Schema<"SiteOverview">;
export type OverviewDay = Overview["days"][number];

/** The site's last 30 days (GET /api/v1/sites/{id}/overview), under the site's key: what refreshes a site refreshes it. */
export const overviewQuery = (siteId: string) =>
  queryOptions({
    queryKey: queryKeys.sites.overview(siteId),
    // "Failing now" should stay true while the page is open: two small reads a minute.
    refetchInterval: 30_000,
    queryFn: async () => (await unwrap(api.GET("/api/v1/sites/{id}/overview", { params: { path: { id: siteId } } }))).data,
  });
