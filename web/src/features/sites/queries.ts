import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";

/** The organization's sites (the first 100: the home page's list). */
export const sitesQuery = queryOptions({
  queryKey: queryKeys.sites.all,
  queryFn: async () => (await unwrap(api.GET("/api/v1/sites", { params: { query: { limit: 100 } } }))).data,
});

/**
 * A site and what still blocks its deletion (`contents`), as `GET /api/v1/sites/{id}` answers:
 * one cache entry, so the site layout and the pages inside it (sources, settings) share one request.
 */
export const siteDetailQuery = (siteId: string) =>
  queryOptions({
    queryKey: queryKeys.sites.one(siteId),
    queryFn: async () => (await unwrap(api.GET("/api/v1/sites/{id}", { params: { path: { id: siteId } } }))).data,
  });

/** The site alone, read from the same cache entry. */
export const siteQuery = (siteId: string) => queryOptions({ ...siteDetailQuery(siteId), select: (detail) => detail.site });

export const createSite = (body: { name: string; domain?: string | null }) =>
  unwrap(api.POST("/api/v1/sites", { body })).then((r) => r.data.site);
