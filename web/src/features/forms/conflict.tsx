import { useQueryClient } from "@tanstack/react-query";
import type { ApiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import type { FormDetail } from "./queries";

/**
 * Said when a save answered 409 CONFLICT: someone else (or a source's submission adding a
 * field) changed the form after this page read it. Nothing was overwritten; reloading shows
 * their version, and the person applies their change again.
 */
export function ConflictNotice({ onReload }: { onReload: () => void }) {
  return (
    <div
      role="alert"
      className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50"
    >
      <p>
        <strong>Someone else changed this form</strong> after you opened it, so your changes were not saved (nothing was
        overwritten). Reload to see the current version, then make your changes again.
      </p>
      <Button variant="secondary" onClick={onReload}>
        Reload the form
      </Button>
    </div>
  );
}

/** Whether an error is the API's answer that the form changed meanwhile. */
export const isConflict = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error && (error as { code: unknown }).code === "CONFLICT";

/**
 * A settings form's end: its error when it concerns the whole form (a conflict says so above
 * instead), and its save button, disabled while saving and after a conflict until it is reloaded.
 */
export function SaveFooter({
  error,
  conflict,
  pending,
  label,
}: {
  error: ApiError | undefined;
  conflict: boolean;
  pending: boolean;
  label: string;
}) {
  return (
    <>
      {!conflict && <FormError message={error?.formMessage} />}
      <div>
        <Button type="submit" disabled={pending || conflict}>
          {pending ? "Saving…" : label}
        </Button>
      </div>
    </>
  );
}

/**
 * The conflict notice of a settings card saved apart from the others (the confirmation email,
 * forward only): reloading reads the form again and hands the fresh version to `onFresh`.
 */
export function ReloadFormNotice({ form, onFresh }: { form: FormDetail; onFresh: (fresh: FormDetail) => void }) {
  const queryClient = useQueryClient();
  return (
    <ConflictNotice
      onReload={async () => {
        await queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(form.id), exact: true });
        onFresh(queryClient.getQueryData<FormDetail>(queryKeys.forms.one(form.id)) ?? form);
      }}
    />
  );
}
