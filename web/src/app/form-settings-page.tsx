import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { formQuery } from "../features/forms/queries";
import { SettingsPage } from "../features/forms/settings-page";
import { siteQuery } from "../features/sites/queries";

const route = getRouteApi("/app/forms/$formId/settings");

/** A form's settings, with its site's domain: a redirect after a submission must stay on it. */
export function FormSettingsPage() {
  const { formId } = route.useParams();
  const form = useQuery(formQuery(formId));
  const siteId = form.data?.siteId;
  const site = useQuery({ ...siteQuery(siteId ?? ""), enabled: siteId !== undefined });
  return <SettingsPage domain={site.data?.domain} />;
}
