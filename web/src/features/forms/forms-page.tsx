import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { Tabs } from "radix-ui";
import { useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { underlineTab } from "../../components/ui/tabs";
import { Muted } from "../../components/ui/text";
import { count } from "../../lib/words";
import { FormActions } from "./form-actions";
import { createForm, type FormSummary, ORIGIN_LABELS, siteFormsQuery } from "./queries";

const route = getRouteApi("/app/sites/$siteId/forms");

/** Name a new form, then build its fields. */
function CreateForm({ siteId }: { siteId: string }) {
  const [name, setName] = useState("");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () => createForm(siteId, name.trim()),
    onSuccess: async (form) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.forms.ofSite(siteId) });
      await navigate({ to: "/forms/$formId/fields", params: { formId: form.id } });
    },
  });
  const error = apiError(create.error);
  return (
    <form onSubmit={submitWith(() => create.mutate())} className="mb-8 flex flex-wrap items-end gap-3" aria-label="New form">
      <TextField
        label="New form name"
        required
        maxLength={255}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={error?.field("name")}
        className="min-w-64"
      />
      <Button type="submit" disabled={create.isPending}>
        Create form
      </Button>
      <FormError message={error?.formMessage} />
    </form>
  );
}

function FormRow({ form }: { form: FormSummary }) {
  return (
    <li className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="font-medium">{form.name}</h3>
          <Muted>
            {ORIGIN_LABELS[form.origin]} · {form.status === "published" ? "Published" : "Draft"}
            {form.archivedAt ? " · Archived" : ""} · {count(form.fieldCount, "field")} ·{" "}
            {count(form.submissionCount ?? 0, "submission")} in the inbox, {form.spamCount ?? 0} in spam
          </Muted>
          <p className="mt-1 flex flex-wrap gap-3 text-sm">
            <Link to="/forms/$formId" params={{ formId: form.id }} search={{}}>
              Inbox<span className="sr-only"> of {form.name}</span>
            </Link>
            <Link to="/forms/$formId/fields" params={{ formId: form.id }}>
              Fields<span className="sr-only"> of {form.name}</span>
            </Link>
            <Link to="/forms/$formId/settings" params={{ formId: form.id }}>
              Settings<span className="sr-only"> of {form.name}</span>
            </Link>
          </p>
        </div>
        <FormActions form={form} />
      </div>
    </li>
  );
}

function FormList({ siteId, archived }: { siteId: string; archived: boolean }) {
  const list = useQuery(siteFormsQuery(siteId, archived));
  if (list.isPending) return <Loading />;
  if (list.isError) return <FormError message={list.error.message} />;
  if (list.data.forms.length === 0) {
    return (
      <Muted>
        {archived ? "No archived forms." : "No forms yet. Create one above, or let a source's first submission create one."}
      </Muted>
    );
  }
  return (
    <ul className="flex flex-col gap-3" aria-label={archived ? "Archived forms" : "Active forms"}>
      {list.data.forms.map((form) => (
        <FormRow key={form.id} form={form} />
      ))}
    </ul>
  );
}

/** A site's forms: active or archived (a tab, in the URL), each with its state, counts and actions. */
export function FormsPage() {
  const { siteId } = route.useParams();
  const { archived = false } = route.useSearch();
  const navigate = route.useNavigate();
  return (
    <>
      <PageHeader
        title="Forms"
        description="A form is created by a source's first submission (it grows from what it receives), or built here (its fields stay as you make them)."
      />
      <CreateForm siteId={siteId} />
      <Tabs.Root
        value={archived ? "archived" : "active"}
        onValueChange={(value) => void navigate({ search: value === "archived" ? { archived: true } : {} })}
      >
        <Tabs.List aria-label="Forms" className="mb-4 flex gap-2 border-b border-slate-200 dark:border-slate-700">
          <Tabs.Trigger value="active" className={underlineTab}>
            Active
          </Tabs.Trigger>
          <Tabs.Trigger value="archived" className={underlineTab}>
            Archived
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="active">
          <FormList siteId={siteId} archived={false} />
        </Tabs.Content>
        <Tabs.Content value="archived">
          <FormList siteId={siteId} archived={true} />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
