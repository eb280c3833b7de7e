import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { CheckboxField, submitWith, TextAreaField, TextField } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { isConflict, ReloadFormNotice, SaveFooter } from "./conflict";
import { type FormDetail, updateForm } from "./queries";

type Confirmation = FormDetail["settings"]["confirmation"];

const draftOf = (c: Confirmation) => ({
  enabled: c.enabled,
  subject: c.subject,
  message: c.message,
  senderName: c.senderName ?? "",
  replyTo: c.replyTo ?? "",
});

/**
 * The confirmation email to the person who filled the form (docs/email.md): on or off, its
 * subject, message, sender name and reply-to, saved apart from the other settings. `domain` is the
 * site's: without one, no confirmation is sent.
 */
export function ConfirmationForm({ form, domain }: { form: FormDetail; domain: string | null | undefined }) {
  const queryClient = useQueryClient();
  const toast = useToast();
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
        <ReloadFormNotice
          form={form}
          onFresh={(fresh) => {
            startFrom(fresh);
            save.reset();
          }}
        />
      )}
      <CheckboxField
        label="Send a confirmation email to the submitter"
        checked={draft.enabled}
        onChange={(enabled) => setDraft({ ...draft, enabled })}
        error={field("enabled")}
      />
      <TextField
        label="Subject"
        required
        maxLength={200}
        value={draft.subject}
        error={field("subject")}
        onChange={(e) => setDraft({ ...draft, subject: e.target.value })}
      />
      <TextAreaField
        label="Message"
        rows={6}
        maxLength={2000}
        value={draft.message}
        error={field("message")}
        hint="Plain text; a blank line starts a paragraph. {name}, {reference} and {form} are filled in."
        onChange={(e) => setDraft({ ...draft, message: e.target.value })}
      />
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
      <SaveFooter error={error} conflict={conflict} pending={save.isPending} label="Save confirmation email" />
    </form>
  );
}
