import { card } from "../../components/ui/page";
import { formatDateTime } from "../../lib/format";

/**
 * A forward-only form's submission whose values were deleted once it was sent on
 * (docs/privacy.md, "Forward-only forms"): a badge in the inbox's list, words on its page.
 */
export function ValuesDeletedBadge() {
  return (
    <span className="inline-block rounded border border-emerald-700 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:border-emerald-400 dark:text-emerald-300">
      Delivered · values not kept
    </span>
  );
}

export function ValuesDeletedNotice({ at }: { at: string }) {
  return (
    <section className={card} aria-labelledby="values-deleted-heading">
      <h2 id="values-deleted-heading" className="mb-3 flex flex-wrap items-center gap-2 text-lg font-medium">
        Fields <ValuesDeletedBadge />
      </h2>
      <p className="text-sm">
        This form is forward-only: once the submission had been sent on to everything it goes to, its values and the sender's IP
        address, browser and page were deleted ({formatDateTime(at)}). They cannot be recovered here. What is kept is that it
        arrived, its reference, its scores, and where it went: its emails and deliveries below.
      </p>
    </section>
  );
}
