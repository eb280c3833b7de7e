import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { ConflictNotice, isConflict } from "./conflict";
import { type FormDetail, updateForm } from "./queries";

type Confirmation = FormDetail["settings"]["confirmation"];

const draftOf = (c: Confirmation) => ({
  enabled: c.enabled,
  subject: c.subject,
  message: c.message,
  senderName: c.senderName ?? "",
  replyTo: c.replyTo ?? "",
});

/** The message's textarea, labelled, with its hint and error as TextField has them. */
function MessageField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error: string | undefined }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Message
      </label>
      <textarea
        id={id}
        rows={6}
        maxLength={2000}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 aria-invalid:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
        Plain text; a blank line starts a paragraph. {"{name}"}, {"{reference}"} and {"{form}"} are filled in.
      </p>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The confirmation email to the person who filled the form (docs/email.md): on or off, its
 * subject, message, sender name and reply-to, saved apart from the other settings. `domain` is the
 * site's: without one, no confirmation is sent.
 */
export function ConfirmationForm({ form, domain }: { form: FormDetail; domain: string | null | undefined }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const checkboxId = useId();
  const [base, setBase] = useState(form.updatedAt);
  const [read, setRead] = useState(() => draftOf(form.settings.confirmation));
  const [draft, setDraft] = useState(read);
  const startFrom = (f: FormDetail) => {
    setBase(f.updatedAt);
    setRead(draftOf(f.settings.confirmation));
    setDraft(draftOf(f.settings.confirmation));
  };
  const dirty = JSON.stringify(draft) !== JSON.stringify(read);
  // A newer version of the form read while nothing here is edited becomes the draft (as the other settings do).
  if (form.updatedAt !== base && !dirty) startFrom(form);
  const save = useMutation({
    mutationFn: () =>
      updateForm(form.id, {
        settings: {
          confirmation: {
            enabled: draft.enabled,
            subject: draft.subject.trim(),
            message: draft.message.trim(),
            senderName: draft.senderName.trim() || null,
            replyTo: draft.replyTo.trim() || null,
          },
        },
        ifUpdatedAt: base,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.forms.one(form.id), saved);
      startFrom(saved);
      toast("Confirmation email saved");
    },
  });
  const error = apiError(save.error);
  const field = (name: string) => error?.field(`settings.confirmation.${name}`);
  const conflict = isConflict(save.error);
  return (
    <form
      className={`${card} flex max-w-2xl flex-col gap-4`}
      aria-labelledby="confirmation-heading"
      noValidate
      onSubmit={submitWith(() => save.mutate())}
    >
      <h2 id="confirmation-heading" className="text-xl font-semibold">
        Confirmation email
      </h2>
      <Muted>
        An email to the person who filled the form, saying it arrived. To keep it from reaching strangers, it goes only for
        submissions that are not spam, sent from a page of the site's domain or through its captcha, at most once a day per
        address, and carries none of what was submitted but the placeholders.
      </Muted>
      {!domain && (
        <Muted>
          The site has no domain yet: set it in the{" "}
          <Link to="/sites/$siteId/settings" params={{ siteId: form.siteId }}>
            site's settings
          </Link>{" "}
          before turning this on.
        </Muted>
      )}
      {conflict && (
        <ConflictNotice
          onReload={async () => {
            await queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(form.id), exact: true });
            const fresh = queryClient.getQueryData<FormDetail>(queryKeys.forms.one(form.id));
            startFrom(fresh ?? form);
            save.reset();
          }}
        />
      )}
      <div className="flex flex-col gap-1">
        <div className="flex items-center gap-2">
          <input
            id={checkboxId}
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })}
            aria-describedby={field("enabled") ? `${checkboxId}-error` : undefined}
            className="h-4 w-4 accent-indigo-700 dark:accent-indigo-400"
          />
          <label htmlFor={checkboxId} className="text-sm font-medium">
            Send a confirmation email to the submitter
          </label>
        </div>
        {field("enabled") && (
          <p id={`${checkboxId}-error`} className="text-sm text-red-700 dark:text-red-400">
            {field("enabled")}
          </p>
        )}
      </div>
      <TextField
        label="Subject"
        required
        maxLength={200}
        value={draft.subject}
        error={field("subject")}
        onChange={(e) => setDraft({ ...draft, subject: e.target.value })}
      />
      <MessageField value={draft.message} error={field("message")} onChange={(message) => setDraft({ ...draft, message })} />
      <TextField
        label="Sender name (optional)"
        maxLength={64}
        placeholder="Acme Support"
        value={draft.senderName}
        error={field("senderName")}
        hint="Shown before the service's own sender address."
        onChange={(e) => setDraft({ ...draft, senderName: e.target.value })}
      />
      <TextField
        label="Reply-to address (optional)"
        type="email"
        placeholder="help@example.com"
        value={draft.replyTo}
        error={field("replyTo")}
        hint="Where the submitter's reply goes."
        onChange={(e) => setDraft({ ...draft, replyTo: e.target.value })}
      />
      {!conflict && <FormError message={error?.formMessage} />}
      <div>
        <Button type="submit" disabled={save.isPending || conflict}>
          {save.isPending ? "Saving…" : "Save confirmation email"}
        </Button>
      </div>
    </form>
  );
}
