import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, apiError, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Schema } from "../../api/types";
import { Button } from "../../components/ui/button";
import { FormError, submitWith } from "../../components/ui/field";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import type { Refusal } from "../../lib/access";
import { RetentionFields, retentionOfDraft, useRetentionDraft } from "./retention-fields";

/**
 * A site's retention defaults (`PUT /api/v1/sites/{id}` with `defaultRetention`): copied into each
 * form created from now on; the site's existing forms keep theirs.
 */
export function SiteRetention({ site, refusal }: { site: Schema<"Site">; refusal: Refusal }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT("/api/v1/sites/{id}", {
          params: { path: { id: site.id } },
          body: { defaultRetention: retentionOfDraft(editor.draft) },
        }),
      ).then((r) => r.data.site),
    onSuccess: async (saved) => {
      editor.reset(saved.defaultRetention);
      toast("Retention defaults saved");
      await queryClient.invalidateQueries({ queryKey: queryKeys.sites.one(site.id) });
    },
  });
  const error = apiError(save.error);
  const editor = useRetentionDraft(site.defaultRetention, { path: "defaultRetention", error, save: () => save.mutate() });
  return (
    <form className="flex flex-col gap-4" aria-labelledby="retention-heading" noValidate onSubmit={submitWith(editor.submit)}>
      <Muted>
        How long the site's new forms keep their submissions. Each form can change its own in its settings; changing these
        defaults leaves the existing forms as they are.
      </Muted>
      <fieldset disabled={refusal !== undefined} className="flex flex-col gap-4">
        <RetentionFields draft={editor.draft} onChange={editor.setDraft} errors={editor.problems} />
      </fieldset>
      {refusal && <p className="text-sm text-slate-700 dark:text-slate-300">{refusal}</p>}
      <FormError message={error?.formMessage} />
      {refusal === undefined && (
        <div>
          <Button type="submit" disabled={save.isPending || editor.unchanged}>
            Save retention defaults
          </Button>
        </div>
      )}
    </form>
  );
}
