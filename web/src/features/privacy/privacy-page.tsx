import { PageHeader } from "../../components/ui/page";
import { Section } from "../../components/ui/section";
import { type Me, type Refusal, refusal, useMe } from "../../lib/access";
import { AccessRequest } from "./access-request";
import { Erasure } from "./erasure";

/**
 * Requests about a person's data are the organization's to answer: the API takes them from
 * owners and admins (ROLE_REQUIRED for members), with the permission each needs.
 */
function roleRefusal(me: Me): Refusal {
  if (me.role === "owner" || me.role === "admin") return undefined;
  return `Only the owner and admins answer requests about a person's data; your role is ${me.role}.`;
}

/**
 * Settings → Privacy (docs/dashboard.md, "Privacy"): a person's data across the organization,
 * exported (an access request) or erased, by their email address.
 */
export function PrivacyPage() {
  const me = useMe();
  const byRole = roleRefusal(me);
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
