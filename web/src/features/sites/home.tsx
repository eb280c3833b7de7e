import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Modal } from "../../components/ui/dialog";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { Onboarding } from "../sources/onboarding";
import { CreateSiteForm } from "./create-site";
import { sitesQuery } from "./queries";

/** The organization's sites; a first-time user with none is guided to a first submission. */
export function Home() {
  const sites = useQuery(sitesQuery);
  const [creating, setCreating] = useState(false);
  const [onboardingSite, setOnboardingSite] = useState<string>();
  if (sites.isPending) return <Loading />;
  if (sites.isError) return <p role="alert">{sites.error.message}</p>;
  const list = sites.data.sites;
  if (list.length === 0 || onboardingSite) {
    return <Onboarding siteId={onboardingSite} onSiteCreated={setOnboardingSite} />;
  }
  return (
    <>
      <PageHeader
        title="Sites"
        description="Each site groups the sources that send you leads and the forms they fill."
        actions={<Button onClick={() => setCreating(true)}>New site</Button>}
      />
      <ul className="grid gap-3 sm:grid-cols-2">
        {list.map((site) => (
          <li key={site.id} className={card}>
            <h2 className="text-lg font-medium">
              <Link to="/sites/$siteId" params={{ siteId: site.id }} search={{}}>
                {site.name}
              </Link>
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {site.domain ?? "No domain set"} · {site.isActive ? "accepting submissions" : "inactive: refuses submissions"}
            </p>
          </li>
        ))}
      </ul>
      <Modal open={creating} onOpenChange={setCreating} title="New site">
        <CreateSiteForm onCreated={() => setCreating(false)} />
      </Modal>
    </>
  );
}
