import { useQuery } from "@tanstack/react-query";
import { card, Loading } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { formatDateTime } from "../../lib/format";
import { submissionEmailsQuery } from "./queries";
import { confirmationWords, FATE_BADGE, FATE_HINTS, FATE_LABELS, KIND_LABELS } from "./words";

/**
 * The emails sent for one submission and what became of each, for its detail page ("did the
 * notification arrive?", "why did the submitter get no confirmation?"): each recipient's fate as
 * SES reported it (docs/email.md).
 */
export function SubmissionEmails({ submissionId }: { submissionId: string }) {
  const emails = useQuery(submissionEmailsQuery(submissionId));
  return (
    <section className={card} aria-labelledby="emails-heading">
      <h2 id="emails-heading" className="mb-3 text-lg font-medium">
        Emails
      </h2>
      {emails.isPending ? (
        <Loading />
      ) : emails.isError ? (
        <p className="text-sm">{emails.error.message}</p>
      ) : (
        <>
          <p className="mb-3 text-sm" role="status">
            <span className="font-medium">Confirmation: </span>
            {confirmationWords(emails.data.confirmation)}
          </p>
          {emails.data.emails.length === 0 ? (
            <Muted>No email was sent for this submission.</Muted>
          ) : (
            <ul className="flex flex-col gap-3 text-sm" aria-label="Emails sent">
              {emails.data.emails.map((email) => (
                <li key={email.messageId} aria-label={KIND_LABELS[email.kind] ?? email.kind}>
                  <p className="font-medium">
                    {KIND_LABELS[email.kind] ?? email.kind}
                    <span className="font-normal text-slate-600 dark:text-slate-300"> · sent {formatDateTime(email.sentAt)}</span>
                  </p>
                  <ul className="mt-1 flex flex-col gap-1">
                    {email.recipients.map((r) => (
                      <li key={r.address ?? "submitter"} className="flex flex-wrap items-baseline gap-2">
                        <span
                          className={`inline-block rounded border px-2 py-0.5 text-xs font-medium ${FATE_BADGE[r.status]}`}
                          title={FATE_HINTS[r.status]}
                        >
                          {FATE_LABELS[r.status]}
                        </span>
                        <span className="break-all">{r.address ?? "the submitter"}</span>
                        <span className="text-slate-600 dark:text-slate-300">
                          {formatDateTime(r.at)}
                          {r.detail && ` · ${r.detail}`}
                        </span>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
