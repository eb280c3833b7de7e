import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { FormError } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { CaptchaForm } from "./captcha-form";
import { DeleteSite } from "./delete-site";
import { Erasure } from "./erasure";
import { GeneralForm } from "./general-form";
import { useAllowed } from "./permissions";
import { siteSettingsQuery } from "./queries";

const route = getRouteApi("/app/sites/$siteId/settings");

function Section({ id, title, children, danger = false }: { id: string; title: string; children: ReactNode; danger?: boolean }) {
  return (
    <section aria-labelledby={id} className={`${card} ${danger ? "border-red-300 dark:border-red-800" : ""} flex flex-col gap-4`}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A site's settings: general, captcha, erasure by email, deletion (docs/dashboard.md, "Site settings"). */
export function SiteSettingsPage() {
  const { siteId } = route.useParams();
  const detail = useQuery(siteSettingsQuery(siteId));
  const edit = useAllowed("sites.edit");
  const erase = useAllowed("submissions.delete");
  const remove = useAllowed("sites.delete");
  if (detail.isPending) return <Loading />;
  if (detail.isError) return <FormError message={detail.error.message} />;
  const { site } = detail.data;
  return (
    <>
      <PageHeader title={`Settings of ${site.name}`} description={site.domain ?? undefined} />
      <div className="flex flex-col gap-6">
        <Section id="general-heading" title="General">
          {/* Remounted when what it shows changes on the server, so the fields show what was saved. */}
          <GeneralForm
            key={[site.name, site.domain, site.referencePrefix, site.isActive].join("|")}
            site={site}
            allowed={edit.allowed}
            reason={edit.reason}
          />
        </Section>
        <Section id="captcha-heading" title="Captcha">
          <CaptchaForm site={site} allowed={edit.allowed} reason={edit.reason} />
        </Section>
        <Section id="erasure-heading" title="Erase by email (GDPR)">
          <Erasure siteId={site.id} allowed={erase.allowed} reason={erase.reason} />
        </Section>
        <Section id="delete-heading" title="Delete this site" danger>
          <DeleteSite detail={detail.data} allowed={remove.allowed} reason={remove.reason} />
        </Section>
      </div>
    </>
  );
}
