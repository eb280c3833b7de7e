import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { useToast } from "../../components/ui/toast";
import { count } from "../../lib/words";
import {
  archiveForm,
  countedFormQuery,
  deleteFormPermanently,
  duplicateForm,
  setPublished,
  siteSourcesQuery,
  updateForm,
} from "./queries";

/** What every action needs to know of the form: the list's items and the detail both have it. */
export interface ActionTarget {
  id: string;
  siteId: string;
  name: string;
  status: "draft" | "published";
  archivedAt: string | null;
  webhookIds: string[];
}

/**
 * What a permanent deletion takes: the submissions (counted now: the layout reads the form
 * without its counts) and the sources whose link to the form goes, by name. Rendered only while
 * the confirmation is open, so nothing is counted until someone asks.
 */
function DeletionScope({ form }: { form: ActionTarget }) {
  const counted = useQuery(countedFormQuery(form.id));
  const sources = useQuery({ ...siteSourcesQuery(form.siteId), enabled: form.webhookIds.length > 0 });
  const total = counted.data ? (counted.data.submissionCount ?? 0) + (counted.data.spamCount ?? 0) : undefined;
  const names = form.webhookIds.map((id) => sources.data?.find((s) => s.id === id)?.name ?? id);
  return (
    <>
      <p>
        This deletes the form <strong>{form.name}</strong> for good, with{" "}
        {total === undefined ? (
          "all of its submissions (counting…)"
        ) : (
          <strong>
            its {count(total, "submission")}
            {counted.data?.spamCount ? ` (${counted.data.spamCount} of them spam)` : ""}
          </strong>
        )}
        .
      </p>
      {form.webhookIds.length === 0 ? (
        <p className="mt-2">No source sends to it, so no source is unlinked.</p>
      ) : (
        <>
          <p className="mt-2">
            {form.webhookIds.length === 1 ? "This source is unlinked" : "These sources are unlinked"}; each one's next submission
            creates a new form:
          </p>
          <ul className="mt-1 list-disc pl-5">
            {names.map((name, i) => (
              <li key={form.webhookIds[i]}>{name}</li>
            ))}
          </ul>
        </>
      )}
      <p className="mt-2">This cannot be undone.</p>
    </>
  );
}

/**
 * Publish or unpublish, duplicate, archive or restore, and (archived forms only) permanent
 * deletion. `onDeleted` runs once the form is gone (the settings page leaves it then).
 */
export function FormActions({ form, onDeleted }: { form: ActionTarget; onDeleted?: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.forms.ofSite(form.siteId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(form.id) }),
    ]);
  const act = useMutation({
    mutationFn: async (action: "publish" | "unpublish" | "duplicate" | "archive" | "restore" | "delete") => {
      if (action === "publish" || action === "unpublish") await setPublished(form.id, action === "publish");
      if (action === "archive") await archiveForm(form.id);
      if (action === "restore") await updateForm(form.id, { restore: true });
      if (action === "delete") await deleteFormPermanently(form.id);
      const copy = action === "duplicate" ? await duplicateForm(form.id) : undefined;
      return { action, copy };
    },
    onSuccess: async ({ action, copy }) => {
      const words = {
        publish: `${form.name} is published`,
        unpublish: `${form.name} is a draft again`,
        duplicate: `Copied as ${copy?.name ?? "a new draft"}`,
        archive: `${form.name} archived`,
        restore: `${form.name} restored`,
        delete: `${form.name} permanently deleted`,
      };
      toast(words[action]);
      if (action === "delete") {
        // Its own queries would answer 404 now: only the lists are read again.
        onDeleted?.();
        await queryClient.invalidateQueries({ queryKey: queryKeys.forms.ofSite(form.siteId) });
        return;
      }
      await refresh();
    },
  });
  const archived = form.archivedAt !== null;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          disabled={act.isPending}
          onClick={() => act.mutate(form.status === "published" ? "unpublish" : "publish")}
          aria-label={`${form.status === "published" ? "Unpublish" : "Publish"}: ${form.name}`}
        >
          {form.status === "published" ? "Unpublish" : "Publish"}
        </Button>
        <Button
          variant="secondary"
          disabled={act.isPending}
          onClick={() => act.mutate("duplicate")}
          aria-label={`Duplicate: ${form.name}`}
        >
          Duplicate
        </Button>
        {archived ? (
          <>
            <Button
              variant="secondary"
              disabled={act.isPending}
              onClick={() => act.mutate("restore")}
              aria-label={`Restore: ${form.name}`}
            >
              Restore
            </Button>
            <ConfirmButton
              label="Delete permanently"
              variant="danger"
              title={`Permanently delete ${form.name}?`}
              description={<DeletionScope form={form} />}
              confirmLabel="Delete for good"
              onConfirm={() => act.mutate("delete")}
            />
          </>
        ) : (
          <ConfirmButton
            label="Archive"
            title={`Archive ${form.name}?`}
            description="It leaves the list of active forms. It keeps its submissions and keeps receiving from its sources; you can restore it at any time."
            confirmLabel="Archive"
            onConfirm={() => act.mutate("archive")}
          />
        )}
      </div>
      <FormError message={apiError(act.error)?.message} />
    </div>
  );
}
