import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";

export const siteKeys = {
  all: ["sites"] as const,
  one: (siteId: string) => ["sites", siteId] as const,
};

/** The organization's sites (the first 100: the home page's list). */
export const sitesQuery = queryOptions({
  queryKey: siteKeys.all,
  queryFn: async () => (await unwrap(api.GET("/api/v1/sites", { params: { query: { limit: 100 } } }))).data,
});

export const siteQuery = (siteId: string) =>
  queryOptions({
    queryKey: siteKeys.one(siteId),
    queryFn: async () => (await unwrap(api.GET("/api/v1/sites/{id}", { params: { path: { id: siteId } } }))).data.site,
  });

export const createSite = (body: { name: string; domain?: string | null }) =>
  unwrap(api.POST("/api/v1/sites", { body })).then((r) => r.data.site);
