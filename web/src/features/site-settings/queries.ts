import type { QueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { paths } from "../../api/schema";
import type { Answer, Schema } from "../../api/types";

/** The body of `PUT /api/v1/sites/{id}`, as the API declares it. */
export type SiteUpdate = NonNullable<paths["/api/v1/sites/{id}"]["put"]["requestBody"]>["content"]["application/json"];

/** A site with what still blocks its deletion (`contents`: webhooks and forms, archived ones included). */
export type SiteDetail = Answer<"getSiteResponse">;
export type Site = Schema<"Site">;

/**
 * After an update: the page shows the site the API answered at once (the forms keep their own
 * fields, set from the same answer, so a refetch never resets what someone is typing), and
 * everything else cached about the site is refetched, with the home page's list of sites.
 */
export async function afterUpdate(queryClient: QueryClient, site: Site) {
  queryClient.setQueryData(queryKeys.sites.one(site.id), (old: SiteDetail | undefined) => (old ? { ...old, site } : old));
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.sites.one(site.id) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.sites.all, exact: true }),
  ]);
}

export const updateSite = (siteId: string, body: SiteUpdate) =>
  unwrap(api.PUT("/api/v1/sites/{id}", { params: { path: { id: siteId } }, body })).then((r) => r.data.site);

export const deleteSite = (siteId: string) => unwrap(api.DELETE("/api/v1/sites/{id}", { params: { path: { id: siteId } } }));
