import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { ApiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { useToast } from "../../components/ui/toast";
import { formatDateTime } from "../../lib/format";
import { deleteSubmission, inboxKeys, setSpam, submissionQuery } from "./queries";
import { signalLabel, valueText } from "./values";

const route = getRouteApi("/app/submissions/$submissionId");

function Pairs({ title, rows }: { title: string; rows: [string, string][] }) {
  if (rows.length === 0) return null;
  return (
    <section className={card} aria-label={title}>
      <h2 className="mb-3 text-lg font-medium">{title}</h2>
      <dl className="grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="font-medium text-slate-600 dark:text-slate-300">{key}</dt>
            <dd className="break-words whitespace-pre-wrap">{value || "—"}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Every field and all the metadata of one submission, with its spam and lead reasons. */
export function SubmissionPage() {
  const { submissionId } = route.useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const submission = useQuery(submissionQuery(submissionId));
  const moderate = useMutation({
    mutationFn: (isSpam: boolean) => setSpam(submissionId, isSpam),
    onSuccess: async (_, isSpam) => {
      toast(isSpam ? "Moved to spam" : "Moved to the inbox");
      await queryClient.invalidateQueries({ queryKey: inboxKeys.submission(submissionId) });
      if (submission.data) await queryClient.invalidateQueries({ queryKey: inboxKeys.form(submission.data.formId) });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteSubmission(submissionId),
    onSuccess: async () => {
      toast("Submission deleted");
      const formId = submission.data?.formId;
      if (formId) {
        await queryClient.invalidateQueries({ queryKey: inboxKeys.form(formId) });
        await navigate({ to: "/forms/$formId", params: { formId }, search: {} });
      }
    },
  });
  if (submission.isPending) return <Loading />;
  if (submission.isError) return <FormError message={submission.error.message} />;
  const s = submission.data;
  const meta = s.metadata as Record<string, unknown>;
  const metaText = (v: unknown) => (v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v));
  const ads = (meta.ads ?? {}) as Record<string, unknown>;
  const error = [moderate.error, remove.error].find((e) => e instanceof ApiError)?.message;
  return (
    <>
      <PageHeader
        title={`Submission ${s.referenceId}`}
        description={`Received ${formatDateTime(s.createdAt)}${s.spam.isSpam ? " · in spam" : ""}`}
        actions={
          <>
            <Button variant="secondary" disabled={moderate.isPending} onClick={() => moderate.mutate(!s.spam.isSpam)}>
              {s.spam.isSpam ? "Not spam" : "Mark as spam"}
            </Button>
            <ConfirmButton
              label="Delete"
              variant="danger"
              title="Delete this submission?"
              description="It is deleted for good, with its data. This cannot be undone."
              confirmLabel="Delete"
              onConfirm={() => remove.mutate()}
            />
          </>
        }
      />
      <p className="mb-4 text-sm">
        <Link to={s.spam.isSpam ? "/forms/$formId/spam" : "/forms/$formId"} params={{ formId: s.formId }} search={{}}>
          Back to the {s.spam.isSpam ? "spam folder" : "inbox"}
        </Link>
      </p>
      <FormError message={error} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Pairs title="Fields" rows={Object.entries(s.data).map(([k, v]) => [k, valueText(v)])} />
        <section className={card} aria-label="Spam score">
          <h2 className="mb-3 text-lg font-medium">Spam score: {s.spam.score} of 100</h2>
          {s.spam.signals.length === 0 ? (
            <p className="text-sm">No spam signal fired.</p>
          ) : (
            <ul className="list-disc pl-5 text-sm">
              {s.spam.signals.map((signal) => (
                <li key={signal.name}>
                  {signalLabel(signal.name)}: +{signal.score}
                  {signal.detail ? ` (${signal.detail})` : ""}
                </li>
              ))}
            </ul>
          )}
        </section>
        {s.lead && (
          <section className={card} aria-label="Lead score">
            <h2 className="mb-3 text-lg font-medium">
              Lead: {s.lead.grade}, score {s.lead.score}
            </h2>
            <ul className="list-disc pl-5 text-sm">
              {s.lead.reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          </section>
        )}
        <Pairs
          title="Metadata"
          rows={[
            ["Source", metaText(meta.source)],
            ["Page (referrer)", metaText(meta.referer)],
            ["User agent", metaText(meta.userAgent)],
            ["IP address", metaText(meta.ip)],
            ["Dropped files", Array.isArray(meta.droppedFiles) ? meta.droppedFiles.join(", ") : ""],
            ["Ignored fields", Array.isArray(meta.ignoredFields) ? meta.ignoredFields.join(", ") : ""],
          ]}
        />
        <Pairs title="Advertising platform" rows={Object.entries(ads).map(([k, v]) => [k, metaText(v)])} />
      </div>
    </>
  );
}
