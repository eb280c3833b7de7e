import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { Loading } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { formatDateTime } from "../../lib/format";
import { liftSuppression, type SuppressedRecipient, suppressedQuery } from "./queries";
import { REASON_LABELS, SUPPRESSED_KINDS } from "./words";

function Row({ entry, formId, canLift }: { entry: SuppressedRecipient; formId: string; canLift: boolean }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const lift = useMutation({
    mutationFn: () => liftSuppression(formId, entry.id),
    onSuccess: async () => {
      toast(`${entry.address} is no longer suppressed`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.emails.suppressed(formId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(formId), exact: true }),
      ]);
    },
  });
  return (
    <li aria-label={entry.address} className="flex flex-wrap items-start justify-between gap-3 py-3">
      <div className="min-w-0 text-sm">
        <p className="font-medium break-all">{entry.address}</p>
        <p className="text-slate-600 dark:text-slate-300">
          {SUPPRESSED_KINDS[entry.kind]} · {REASON_LABELS[entry.reason]} on {formatDateTime(entry.at)}
          {entry.detail && ` · ${entry.detail}`}
        </p>
        <FormError className="mt-2" message={apiError(lift.error)?.message} />
      </div>
      {canLift && (
        <ConfirmButton
          label={lift.isPending ? "Lifting…" : "Lift"}
          disabled={lift.isPending}
          title={`Send to ${entry.address} again?`}
          description={
            <p>
              Do this once the mailbox is fixed, or its owner asked for the emails again. The address comes off SES's suppression
              list and this form's: its next email goes to it. If it bounces or complains again, it is suppressed again.
            </p>
          }
          confirmLabel="Lift the suppression"
          onConfirm={() => lift.mutate()}
        />
      )}
    </li>
  );
}

/**
 * The addresses a form's emails skip because SES reported them bouncing or complaining (its
 * notification addresses, and submitters its confirmations went to: docs/email.md), and lifting
 * one. `canLift`: the person may edit the form.
 */
export function SuppressedRecipients({ formId, canLift }: { formId: string; canLift: boolean }) {
  const list = useInfiniteQuery(suppressedQuery(formId));
  const entries = list.data?.pages.flatMap((page) => page.suppressedRecipients) ?? [];
  return (
    <section aria-labelledby="suppressed-heading" className="max-w-2xl">
      <h2 id="suppressed-heading" className="mb-1 text-xl font-semibold">
        Suppressed addresses
      </h2>
      <Muted className="mb-3">
        SES reported these addresses bouncing or marking this form's emails as spam: the form sends them nothing more, which keeps
        the service's sending reputation. Lift one once its mailbox is fixed.
      </Muted>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <FormError message={list.error.message} />
      ) : entries.length === 0 ? (
        <Muted>No suppressed addresses.</Muted>
      ) : (
        <ul aria-label="Suppressed addresses" className="divide-y divide-slate-200 dark:divide-slate-700">
          {entries.map((entry) => (
            <Row key={entry.id} entry={entry} formId={formId} canLift={canLift} />
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <Button variant="secondary" className="mt-3" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? "Loading…" : "Load more"}
        </Button>
      )}
    </section>
  );
}
