import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { formQuery } from "../features/forms/queries";
import { ImportPage as Import } from "../features/imports/import-page";

const route = getRouteApi("/app/forms/$formId/import");

/** A form's Import page, offering the form's fields (the form layout's own query: no second request) for each column. */
export function ImportPage() {
  const { formId } = route.useParams();
  const form = useQuery(formQuery(formId));
  const fields = (form.data?.fields ?? []).map((f) => ({ key: f.key, label: f.label }));
  return <Import formId={formId} fields={fields} />;
}
