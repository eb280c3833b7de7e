import type { ReactNode } from "react";
import { card, PageHeader } from "../../components/ui/page";
import { type Refusal, refusal, useMe } from "../../lib/access";
import { CaptchaForm } from "./captcha-form";
import { DeleteSite } from "./delete-site";
import { Erasure } from "./erasure";
import { GeneralForm } from "./general-form";
import type { SiteDetail } from "./queries";

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

/**
 * A site's settings: general, captcha, erasure by email, deletion (docs/dashboard.md, "Site
 * settings"), of the site the layout read (given by web/src/app/site-settings-page.tsx). A
 * control the person's role does not allow is disabled, with the reason beside it.
 */
export function SiteSettingsPage({
  detail,
  retention,
}: {
  detail: SiteDetail;
  /** The retention defaults' section (web/src/app/site-settings-page.tsx), given whether the person may edit the site. */
  retention?: (refusal: Refusal) => ReactNode;
}) {
  const me = useMe();
  const cannotEdit = refusal(me, "sites.edit");
  const { site } = detail;
  return (
    <>
      <PageHeader title={`Settings of ${site.name}`} description={site.domain ?? undefined} />
      <div className="flex flex-col gap-6">
        <Section id="general-heading" title="General">
          {/* Remounted when what it shows changes on the server, so the fields show what was saved. */}
          <GeneralForm
            key={[site.name, site.domain, site.referencePrefix, site.isActive].join("|")}
            site={site}
            refusal={cannotEdit}
          />
        </Section>
        <Section id="captcha-heading" title="Captcha">
          <CaptchaForm site={site} refusal={cannotEdit} />
        </Section>
        {retention && (
          <Section id="retention-heading" title="Retention of new forms">
            {retention(cannotEdit)}
          </Section>
        )}
        <Section id="erasure-heading" title="Erase by email (GDPR)">
          <Erasure siteId={site.id} refusal={refusal(me, "submissions.delete")} />
        </Section>
        <Section id="delete-heading" title="Delete this site" danger>
          <DeleteSite detail={detail} refusal={refusal(me, "sites.delete")} />
        </Section>
      </div>
    </>
  );
}
