import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { type ReactNode, useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { FormError, submitWith, TextAreaField, TextField } from "../../components/ui/field";
import { card, Loading } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { ConfirmationForm } from "./confirmation-form";
import { ConflictNotice, isConflict, SaveFooter } from "./conflict";
import { FormActions } from "./form-actions";
import { ForwardOnlyForm } from "./forward-only-form";
import { type FormDetail, formQuery, updateForm } from "./queries";

const route = getRouteApi("/app/forms/$formId/settings");

/** The API's limit (docs/api.md, "Forms and submissions"). */
const MAX_RECIPIENTS = 10;

const addressesOf = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

/** The notification addresses, one a line. */
function Recipients({ value, onChange, error }: { value: string; onChange: (value: string) => void; error: string | undefined }) {
  return (
    <TextAreaField
      label="Notification recipients"
      rows={4}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={`One address per line, at most ${MAX_RECIPIENTS}. Each gets an email for every submission that is not spam.`}
      className="font-mono"
    />
  );
}

function SettingsForm({
  form,
  domain,
  onReload,
}: {
  form: FormDetail;
  domain: string | null | undefined;
  onReload: () => Promise<unknown>;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const initial = (f: FormDetail) => ({
    name: f.name,
    recipients: f.settings.notifyEmails.join("\n"),
    redirectUrl: f.settings.redirectUrl ?? "",
    base: f.updatedAt,
  });
  const [read, setRead] = useState(() => initial(form));
  const [draft, setDraft] = useState(read);
  const [tooMany, setTooMany] = useState(false);
  const startFrom = (f: FormDetail) => {
    setRead(initial(f));
    setDraft(initial(f));
  };
  // A newer version read while nothing is being edited (this page's own publish or archive, a
  // refetch) becomes the draft; one read during an edit does not, so its save says CONFLICT.
  const dirty = draft.name !== read.name || draft.recipients !== read.recipients || draft.redirectUrl !== read.redirectUrl;
  if (form.updatedAt !== read.base && !dirty) startFrom(form);
  const save = useMutation({
    mutationFn: () =>
      updateForm(form.id, {
        name: draft.name.trim(),
        settings: { notifyEmails: addressesOf(draft.recipients), redirectUrl: draft.redirectUrl.trim() || null },
        ifUpdatedAt: draft.base,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.forms.one(form.id), saved);
      startFrom(saved);
      toast("Settings saved");
      void queryClient.invalidateQueries({ queryKey: queryKeys.forms.ofSite(form.siteId) });
    },
  });
  const error = apiError(save.error);
  const conflict = isConflict(save.error);
  const recipientsError =
    (tooMany ? `At most ${MAX_RECIPIENTS} addresses.` : undefined) ??
    error?.details.find((d) => d.path.startsWith("settings.notifyEmails"))?.message;
  return (
    <form
      className={`${card} flex max-w-2xl flex-col gap-4`}
      aria-labelledby="settings-heading"
      noValidate
      onSubmit={submitWith(() => {
        const many = addressesOf(draft.recipients).length > MAX_RECIPIENTS;
        setTooMany(many);
        if (!many) save.mutate();
      })}
    >
      <h2 id="settings-heading" className="text-xl font-semibold">
        Settings
      </h2>
      {conflict && (
        <ConflictNotice
          onReload={async () => {
            const fresh = (await onReload()) as { data?: FormDetail };
            startFrom(fresh.data ?? form);
            save.reset();
          }}
        />
      )}
      <TextField
        label="Form name"
        required
        maxLength={255}
        value={draft.name}
        error={error?.field("name")}
        onChange={(e) => setDraft({ ...draft, name: e.target.value })}
      />
      <Recipients
        value={draft.recipients}
        onChange={(recipients) => setDraft({ ...draft, recipients })}
        error={recipientsError}
      />
      <TextField
        label="Redirect after a submission"
        type="url"
        inputMode="url"
        placeholder="https://www.example.com/thanks"
        value={draft.redirectUrl}
        error={error?.field("settings.redirectUrl")}
        hint={`Where a visitor's browser goes after sending a plain HTML form (the reference is added as ?ref=). A _redirect field in the form wins; scripts keep getting JSON. Empty: the thank-you page.${
          domain ? ` It must be on ${domain} or one of its subdomains.` : ""
        }`}
        onChange={(e) => setDraft({ ...draft, redirectUrl: e.target.value })}
      />
      <SaveFooter error={error} conflict={conflict} pending={save.isPending} label="Save settings" />
    </form>
  );
}

/**
 * A form's settings (name, notification recipients, redirect, the confirmation email) and what
 * can be done to it. `domain` is its site's, where the redirect must go and without which no
 * confirmation is sent; `children` (its suppressed addresses) follow the settings (both given by
 * web/src/app/form-settings-page.tsx).
 */
export function SettingsPage({ domain, children }: { domain: string | null | undefined; children?: ReactNode }) {
  const { formId } = route.useParams();
  const navigate = useNavigate();
  const form = useQuery(formQuery(formId));
  if (form.isPending) return <Loading />;
  if (form.isError) return <FormError message={form.error.message} />;
  const data = form.data;
  return (
    <div className="flex flex-col gap-8">
      <SettingsForm key={data.id} form={data} domain={domain} onReload={() => form.refetch()} />
      <ConfirmationForm key={`confirmation-${data.id}`} form={data} domain={domain} />
      <ForwardOnlyForm key={`forward-only-${data.id}`} form={data} />
      {children}
      <section aria-labelledby="actions-heading" className="max-w-2xl">
        <h2 id="actions-heading" className="mb-1 text-xl font-semibold">
          Status and actions
        </h2>
        <Muted className="mb-3">
          {data.status === "published" ? "Published." : "A draft."}{" "}
          {data.archivedAt
            ? "Archived: restore it to list it with the active forms again, or delete it permanently."
            : "Archiving keeps its submissions; only an archived form can be deleted permanently."}
        </Muted>
        <FormActions
          form={data}
          onDeleted={() => void navigate({ to: "/sites/$siteId/forms", params: { siteId: data.siteId }, search: {} })}
        />
      </section>
    </div>
  );
}
