import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { CheckboxField, submitWith } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { useToast } from "../../components/ui/toast";
import { isConflict, ReloadFormNotice, SaveFooter } from "./conflict";
import { type FormDetail, updateForm } from "./queries";

/**
 * The form's forward-only switch (docs/privacy.md, "Forward-only forms"), saved apart from the
 * other settings like the confirmation email: a submission's values are deleted once its emails
 * and deliveries are final, at most 72 hours after it arrived. The API records each change in the
 * audit log.
 */
export function ForwardOnlyForm({ form }: { form: FormDetail }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [base, setBase] = useState(form.updatedAt);
  const [read, setRead] = useState(form.settings.forwardOnly);
  const [draft, setDraft] = useState(read);
  const startFrom = (f: FormDetail) => {
    setBase(f.updatedAt);
    setRead(f.settings.forwardOnly);
    setDraft(f.settings.forwardOnly);
  };
  // A newer version of the form read while nothing here is edited becomes the draft (as the other settings do).
  if (form.updatedAt !== base && draft === read) startFrom(form);
  const save = useMutation({
    mutationFn: () => updateForm(form.id, { settings: { forwardOnly: draft }, ifUpdatedAt: base }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.forms.one(form.id), saved);
      startFrom(saved);
      toast(saved.settings.forwardOnly ? "Forward-only turned on" : "Forward-only turned off");
    },
  });
  const error = apiError(save.error);
  const conflict = isConflict(save.error);
  return (
    <form
      className={`${card} flex max-w-2xl flex-col gap-4`}
      aria-labelledby="forward-only-heading"
      noValidate
      onSubmit={submitWith(() => save.mutate())}
    >
      <h2 id="forward-only-heading" className="text-xl font-semibold">
        Forward only
      </h2>
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
        label="Keep nothing: delete each submission's values once it has been sent on"
        checked={draft}
        onChange={setDraft}
        hint="Inlet sends each submission to this form's notification emails, chat destinations and webhooks as usual. Once every one of them has succeeded or given up, the submitted values and the sender's IP address, browser and page are deleted, and at most 72 hours after the submission arrived even if a delivery is still retrying. What stays is that it arrived, its reference, and where it went. Spam is not sent on, and is kept for review like any other spam. Deleted values cannot be recovered. The change applies to new submissions and is recorded in the audit log."
      />
      <SaveFooter error={error} conflict={conflict} pending={save.isPending} label="Save forward only" />
    </form>
  );
}
