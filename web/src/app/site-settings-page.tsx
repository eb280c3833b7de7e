import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { FormError } from "../components/ui/field";
import { Loading } from "../components/ui/page";
import { SiteRetention } from "../features/retention/site-retention";
import { SiteSettingsPage as SiteSettings } from "../features/site-settings/settings-page";
import { siteDetailQuery } from "../features/sites/queries";

const route = getRouteApi("/app/sites/$siteId/settings");

/**
 * A site's settings, of the site and its contents as the site layout read them (one cache entry,
 * one request), with its retention defaults for new forms (retention).
 */
export function SiteSettingsPage() {
  const { siteId } = route.useParams();
  const detail = useQuery(siteDetailQuery(siteId));
  if (detail.isPending) return <Loading />;
  if (detail.isError) return <FormError message={detail.error.message} />;
  return (
    <SiteSettings
      detail={detail.data}
      retention={(refusal) => (
        <SiteRetention key={JSON.stringify(detail.data.site.defaultRetention)} site={detail.data.site} refusal={refusal} />
      )}
    />
  );
}
