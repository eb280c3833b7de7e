import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Loading } from "../components/ui/page";
import { sitesQuery } from "../features/sites/queries";
import { SiteList } from "../features/sites/site-list";
import { Onboarding } from "./onboarding";

/** The organization's sites; a first-time user with none is guided to a first submission. */
export function HomePage() {
  const sites = useQuery(sitesQuery);
  // The site made in the guided start: the guide goes on with it rather than showing the list.
  const [onboardingSite, setOnboardingSite] = useState<string>();
  if (sites.isPending) return <Loading />;
  if (sites.isError) return <p role="alert">{sites.error.message}</p>;
  if (sites.data.sites.length === 0 || onboardingSite) {
    return <Onboarding siteId={onboardingSite} onSiteCreated={setOnboardingSite} />;
  }
  return <SiteList sites={sites.data.sites} />;
}
