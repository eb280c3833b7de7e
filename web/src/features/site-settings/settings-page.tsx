import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { PageHeader } from "../../components/ui/page";
import { Section } from "../../components/ui/section";
import { type Refusal, refusal, useMe } from "../../lib/access";
import { CaptchaForm } from "./captcha-form";
import { DeleteSite } from "./delete-site";
import { GeneralForm } from "./general-form";
import type { SiteDetail } from "./queries";

/**
 * A site's settings: general, captcha, where a person's data is answered for, deletion
 * (docs/dashboard.md, "Site settings"), of the site the layout read (given by
 * web/src/app/site-settings-page.tsx). A control the person's role does not allow is disabled,
 * with the reason beside it.
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
        <Section id="privacy-heading" title="A person's data (GDPR)">
          <p className="text-sm">
            Exporting or erasing what a person submitted is done for the whole organization, every site at once, on the{" "}
            <Link to="/settings/privacy">Privacy settings page</Link>.
          </p>
        </Section>
        <Section id="delete-heading" title="Delete this site" danger>
          <DeleteSite detail={detail} refusal={refusal(me, "sites.delete")} />
        </Section>
      </div>
    </>
  );
}
