import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";

export const overviewKeys = {
  /** Under the site's key, so whatever refreshes a site refreshes its overview too. */
  site: (siteId: string) => ["sites", siteId, "overview"] as const,
};

/** The site's last 30 days (GET /api/v1/sites/{id}/overview). */
export const overviewQuery = (siteId: string) =>
  queryOptions({
    queryKey: overviewKeys.site(siteId),
    // "Failing now" should stay true while the page is open: two small reads a minute.
    refetchInterval: 30_000,
    queryFn: async () => (await unwrap(api.GET("/api/v1/sites/{id}/overview", { params: { path: { id: siteId } } }))).data,
  });

export type Overview = Awaited<ReturnType<NonNullable<ReturnType<typeof overviewQuery>["queryFn"]>>>;
export type OverviewDay = Overview["days"][number];
