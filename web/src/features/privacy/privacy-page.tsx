import { PageHeader } from "../../components/ui/page";
import { Section } from "../../components/ui/section";
import { privacyRefusal, refusal, useMe } from "../../lib/access";
import { AccessRequest } from "./access-request";
import { Erasure } from "./erasure";

/**
 * Settings → Privacy (docs/dashboard.md, "Privacy"): a person's data across the organization,
 * exported (an access request) or erased, by their email address.
 */
export function PrivacyPage() {
  const me = useMe();
  const byRole = privacyRefusal(me);
  const organization = { id: me.organization.id, name: me.organization.name };
  return (
    <>
      <PageHeader
        title="Privacy"
        description="Answer a person who asks what the organization holds about them, or asks to be forgotten. Both actions cover every site and form, and are recorded in the audit log."
      />
      {byRole && (
        <p role="note" className="mb-6 text-sm text-slate-700 dark:text-slate-300">
          {byRole}
        </p>
      )}
      <div className="flex flex-col gap-6">
        <Section id="access-heading" title="Export a person's data">
          <AccessRequest refusal={byRole ?? refusal(me, "submissions.export")} organization={organization} />
        </Section>
        <Section id="erasure-heading" title="Erase a person's data" danger>
          <Erasure refusal={byRole ?? refusal(me, "submissions.delete")} />
        </Section>
      </div>
    </>
  );
}
