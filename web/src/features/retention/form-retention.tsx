import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, apiError, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Schema } from "../../api/types";
import { Button } from "../../components/ui/button";
import { FormError, submitWith } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { formatDateTime } from "../../lib/format";
import { RetentionFields, retentionOfDraft, retentionText, useRetentionDraft } from "./retention-fields";

type FormDetail = Schema<"FormDetail">;

/** The job applying the form's latest retention change, in words (docs/privacy.md, "Retention"). */
export function RetentionJobStatus({ job }: { job: FormDetail["retentionJob"] }) {
  if (!job) return null;
  if (job.status === "running") {
    return (
      <p role="status" className="text-sm">
        Applying the new retention to the existing submissions: {job.examined} checked so far, {job.updated} re-dated.
      </p>
    );
  }
  return (
    <Muted>
      The last change was applied to the existing submissions on {formatDateTime(job.finishedAt)} ({job.updated} of {job.examined}{" "}
      re-dated).
    </Muted>
  );
}

/**
 * A form's retention: how long its inbox and its spam are kept (`PUT /api/v1/forms/{formId}`
 * with `retention`), and the progress of the background job that re-dates the submissions it
 * already has after a change. `canEdit`: whether the person may change it (forms.edit).
 */
export function FormRetention({ form, canEdit }: { form: FormDetail; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT("/api/v1/forms/{formId}", {
          params: { path: { formId: form.id } },
          body: { retention: retentionOfDraft(editor.draft) },
        }),
      ).then((r) => r.data.form),
    onSuccess: async (saved) => {
      queryClient.setQueryData(queryKeys.forms.one(form.id), saved);
      editor.reset(saved.retention);
      toast("Retention saved");
      await queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(form.id) });
    },
  });
  const error = apiError(save.error);
  const editor = useRetentionDraft(form.retention, { path: "retention", error, save: () => save.mutate() });
  return (
    <form
      className={`${card} flex max-w-2xl flex-col gap-4`}
      aria-labelledby="retention-heading"
      noValidate
      onSubmit={submitWith(editor.submit)}
    >
      <h2 id="retention-heading" className="text-xl font-semibold">
        Retention
      </h2>
      <Muted>
        Inbox submissions are {retentionText(form.retention.inboxDays)}; spam is {retentionText(form.retention.spamDays)}. Deleted
        submissions are gone for good, with their emails and delivery records. A change applies to the submissions the form
        already has too, in the background.
      </Muted>
      <fieldset disabled={!canEdit} className="flex flex-col gap-4">
        <RetentionFields draft={editor.draft} onChange={editor.setDraft} errors={editor.problems} />
      </fieldset>
      {!canEdit && <Muted>Your role cannot change this form's retention.</Muted>}
      <RetentionJobStatus job={form.retentionJob} />
      <FormError message={error?.formMessage} />
      {canEdit && (
        <div>
          <Button type="submit" disabled={save.isPending || editor.unchanged}>
            Save retention
          </Button>
        </div>
      )}
    </form>
  );
}
