import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { type ApiError, apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { useToast } from "../../components/ui/toast";
import type { Refusal } from "../../lib/access";
import { count } from "../../lib/words";
import { deleteSite, type SiteDetail } from "./queries";
import { Reason } from "./reason";

/**
 * Why the delete was refused. `SITE_NOT_EMPTY` names what is left in its details (`forms`,
 * `webhooks`): a form stored before sites counted their forms is found only by the delete.
 */
function whyRefused(error: ApiError | undefined): string | undefined {
  if (error?.code !== "SITE_NOT_EMPTY") return error?.message;
  const left = [
    ...(error.field("webhooks") ? [`sources: ${error.field("webhooks")}`] : []),
    ...(error.field("forms") ? [`forms: ${error.field("forms")}`] : []),
  ];
  return left.length > 0 ? `${error.message} (${left.join(", ")})` : error.message;
}

/**
 * Deleting a site (`DELETE /api/v1/sites/{id}`) is refused while it has sources or forms,
 * archived ones included (409 `SITE_NOT_EMPTY`): the page says so from the site's `contents`
 * before anyone tries, so a site is never the one click that erases every lead it collected.
 */
export function DeleteSite({ detail, refusal }: { detail: SiteDetail; refusal: Refusal }) {
  const { site, contents } = detail;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const remove = useMutation({
    mutationFn: () => deleteSite(site.id),
    onSuccess: async () => {
      toast(`${site.name} deleted`);
      queryClient.removeQueries({ queryKey: queryKeys.sites.one(site.id) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.sites.all, exact: true });
      await navigate({ to: "/" });
    },
    // Someone added a source or form meanwhile: show what blocks it now.
    onError: () => queryClient.invalidateQueries({ queryKey: queryKeys.sites.one(site.id) }),
  });
  const left = [
    ...(contents.webhooks > 0 ? [count(contents.webhooks, "source")] : []),
    ...(contents.forms > 0 ? [count(contents.forms, "form")] : []),
  ];
  const blocked = left.length > 0;
  return (
    <div className="flex flex-col gap-3">
      {blocked ? (
        <p className="text-sm">
          This site still has <strong>{left.join(" and ")}</strong> (archived ones count), so it cannot be deleted yet. First
          archive and then permanently delete each source on the site's Sources page (a source's permanent deletion takes the form
          it created along, with its submissions), and each form you built on its Forms page. Nothing is deleted with the site, so
          no lead is ever lost by one click.
        </p>
      ) : (
        <p className="text-sm">The site has no sources or forms left: it can be deleted.</p>
      )}
      <FormError message={whyRefused(apiError(remove.error))} />
      <div className="flex flex-wrap items-center gap-3">
        <ConfirmButton
          label="Delete site"
          variant="danger"
          disabled={refusal !== undefined || blocked || remove.isPending}
          title={`Delete ${site.name}?`}
          description={
            <>
              <p>
                This deletes the site <strong>{site.name}</strong> for good: its name, domain, captcha settings with the stored
                secret key, and its reference-number sequence. It has no sources or forms left, so no submission goes with it.
              </p>
              <p className="mt-2">This cannot be undone.</p>
            </>
          }
          confirmLabel="Delete site"
          onConfirm={() => remove.mutate()}
        />
        <Reason text={refusal} />
      </div>
    </div>
  );
}
