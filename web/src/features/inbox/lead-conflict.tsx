import { ApiError } from "../../api/client";
import { Button } from "../../components/ui/button";

/** Whether an error is the API's answer that the lead (or the note) changed meanwhile. */
export const isConflict = (error: unknown) => error instanceof ApiError && error.code === "CONFLICT";

/** Said when a save answered 409 CONFLICT, as the form builder says it: nothing was overwritten. */
export function ConflictAlert({ what, onReload }: { what: string; onReload: () => void }) {
  return (
    <div
      role="alert"
      className="mb-3 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50"
    >
      <p>
        <strong>Someone else changed this {what}</strong> after you opened it, so your change was not saved (nothing was
        overwritten). Reload to see theirs, then make yours again.
      </p>
      <Button variant="secondary" onClick={onReload}>
        Reload
      </Button>
    </div>
  );
}
