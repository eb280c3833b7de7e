import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { formQuery } from "../features/forms/queries";

/**
 * The name of the form whose layout the page is in (`/forms/$formId/…`), for the pages of other
 * features that title themselves with it: read from the form layout's own query, so one cache
 * entry and no second request.
 */
export function useFormName(): string | undefined {
  const { formId } = useParams({ from: "/app/forms/$formId" });
  return useQuery(formQuery(formId)).data?.name;
}
