import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { siteQuery } from "../features/sites/queries";
import { SourcesPage as Sources } from "../features/sources/sources-page";

const route = getRouteApi("/app/sites/$siteId/sources");

/** A site's sources, with the site's domain for their setups (the site layout's own query: no second request). */
export function SourcesPage() {
  const { siteId } = route.useParams();
  const site = useQuery(siteQuery(siteId));
  return <Sources domain={site.data?.domain} />;
}
