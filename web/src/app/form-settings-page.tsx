import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { SuppressedRecipients } from "../features/emails/suppressed-recipients";
import { formQuery } from "../features/forms/queries";
import { SettingsPage } from "../features/forms/settings-page";
import { FormRetention } from "../features/retention/form-retention";
import { siteQuery } from "../features/sites/queries";
import { can, useMe } from "../lib/access";

const route = getRouteApi("/app/forms/$formId/settings");

/**
 * A form's settings, with its site's domain (a redirect after a submission must stay on it, a
 * confirmation needs it), its retention (retention) and its suppressed addresses (emails), which
 * list submitters' addresses: shown to those who may read submissions, liftable by those who may
 * edit the form.
 */
export function FormSettingsPage() {
  const { formId } = route.useParams();
  const me = useMe();
  const form = useQuery(formQuery(formId));
  const siteId = form.data?.siteId;
  const site = useQuery({ ...siteQuery(siteId ?? ""), enabled: siteId !== undefined });
  return (
    <SettingsPage domain={site.data?.domain}>
      {form.data && <FormRetention key={`retention-${form.data.id}`} form={form.data} canEdit={can(me, "forms.edit")} />}
      {can(me, "submissions.view") && <SuppressedRecipients formId={formId} canLift={can(me, "forms.edit")} />}
    </SettingsPage>
  );
}
