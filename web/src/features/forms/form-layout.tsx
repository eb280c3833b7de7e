import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link, Outlet } from "@tanstack/react-router";
import { FormError } from "../../components/ui/field";
import { Muted } from "../../components/ui/text";
import { formQuery, ORIGIN_LABELS } from "./queries";

const route = getRouteApi("/app/forms/$formId");

const tab =
  "border-b-2 border-transparent px-3 py-2 text-sm font-medium no-underline aria-[current=page]:border-indigo-700 dark:aria-[current=page]:border-indigo-300";

/**
 * The frame of every form page (inbox, spam, fields, settings, webhooks, import): the form's name, its
 * state in words, and the sub-navigation. The form is read without its counts, as the inbox
 * reads it (the same query), so opening a form never reads all of its submissions.
 */
export function FormLayout() {
  const { formId } = route.useParams();
  // While a retention change is being applied to its submissions, its progress is read again every few seconds.
  const form = useQuery({
    ...formQuery(formId),
    refetchInterval: (query) => (query.state.data?.retentionJob?.status === "running" ? 3000 : false),
  });
  const data = form.data;
  return (
    <>
      <div className="mb-6">
        {data && (
          <p className="mb-1 text-sm">
            <Link to="/sites/$siteId/forms" params={{ siteId: data.siteId }} search={{}}>
              All forms of the site
            </Link>
          </p>
        )}
        <h1 className="text-2xl font-semibold">{data?.name ?? "Form"}</h1>
        {data && (
          <Muted className="mt-1">
            {data.status === "published" ? "Published" : "Draft"} · {ORIGIN_LABELS[data.origin]}
            {data.archivedAt ? " · Archived" : ""}
          </Muted>
        )}
        {data?.retentionJob?.status === "running" && (
          <p role="status" className="mt-1 text-sm">
            Applying a retention change to its submissions: {data.retentionJob.examined} checked, {data.retentionJob.updated}{" "}
            re-dated so far.
          </p>
        )}
        {form.isError && <FormError message={form.error.message} />}
        <nav aria-label="Form sections" className="mt-4 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-700">
          <Link
            to="/forms/$formId"
            params={{ formId }}
            search={{}}
            activeOptions={{ exact: true, includeSearch: false }}
            className={tab}
          >
            Inbox
          </Link>
          <Link to="/forms/$formId/spam" params={{ formId }} search={{}} activeOptions={{ includeSearch: false }} className={tab}>
            Spam
          </Link>
          <Link to="/forms/$formId/fields" params={{ formId }} className={tab}>
            Fields
          </Link>
          <Link to="/forms/$formId/settings" params={{ formId }} className={tab}>
            Settings
          </Link>
          <Link to="/forms/$formId/webhooks" params={{ formId }} className={tab}>
            Webhooks
          </Link>
          <Link to="/forms/$formId/import" params={{ formId }} className={tab}>
            Import
          </Link>
        </nav>
      </div>
      <Outlet />
    </>
  );
}
