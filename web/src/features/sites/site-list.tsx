import { Link } from "@tanstack/react-router";
import { useState } from "react";
import type { Schema } from "../../api/types";
import { Button } from "../../components/ui/button";
import { Modal } from "../../components/ui/dialog";
import { card, PageHeader } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { CreateSiteForm } from "./create-site";

/** The organization's sites, each with its domain and state, and a new one made in a dialog. */
export function SiteList({ sites }: { sites: Schema<"Site">[] }) {
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Sites"
        description="Each site groups the sources that send you leads and the forms they fill."
        actions={<Button onClick={() => setCreating(true)}>New site</Button>}
      />
      <ul className="grid gap-3 sm:grid-cols-2">
        {sites.map((site) => (
          <li key={site.id} className={card}>
            <h2 className="text-lg font-medium">
              <Link to="/sites/$siteId" params={{ siteId: site.id }} search={{}}>
                {site.name}
              </Link>
            </h2>
            <Muted>
              {site.domain ?? "No domain set"} · {site.isActive ? "accepting submissions" : "inactive: refuses submissions"}
            </Muted>
          </li>
        ))}
      </ul>
      <Modal open={creating} onOpenChange={setCreating} title="New site">
        <CreateSiteForm onCreated={() => setCreating(false)} />
      </Modal>
    </>
  );
}
