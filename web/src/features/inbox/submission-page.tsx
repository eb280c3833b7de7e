import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { ApiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { useToast } from "../../components/ui/toast";
import { formatDate, formatDateTime } from "../../lib/format";
import { ImportedNote, importedOf } from "./imported";
import { Pairs, ValueLink } from "./pairs";
import { deleteSubmission, type Submission, setSpam, submissionQuery } from "./queries";
import { TriagePanel } from "./triage-panel";
import { gradeLabel, signalLabel, valueText } from "./values";
import { ValuesDeletedNotice } from "./values-deleted";

const route = getRouteApi("/app/submissions/$submissionId");

/** The advertising platform's system fields in words, with the platform's own name (docs/intake.md). */
const AD_LABELS: Record<string, string> = {
  lead_id: "Lead id (lead_id)",
  campaign_id: "Campaign id (campaign_id)",
  form_id: "Lead form id (form_id)",
  gcl_id: "Click id (gcl_id)",
  adgroup_id: "Ad group id (adgroup_id)",
  creative_id: "Creative id (creative_id)",
  asset_group_id: "Asset group id (asset_group_id)",
  lead_submit_time: "Submitted on the platform (lead_submit_time)",
  lead_stage: "Lead stage (lead_stage)",
  api_version: "API version (api_version)",
  is_test: "Test lead (is_test)",
};
/** The known ids first, in the order above, then anything the platform added. */
function adRows(ads: Record<string, string | boolean>): [string, string][] {
  const keys = [...Object.keys(AD_LABELS).filter((k) => k in ads), ...Object.keys(ads).filter((k) => !(k in AD_LABELS))];
  return keys.map((key) => {
    const value = ads[key] ?? "";
    return [AD_LABELS[key] ?? key, typeof value === "boolean" ? (value ? "yes" : "no") : value];
  });
}

/**
 * Every field and all the metadata of one submission, with its spam and lead reasons, and what
 * `deliveries` adds about it (its outbound deliveries: composed in web/src/app/submission-page.tsx).
 */
export function SubmissionPage({ deliveries }: { deliveries: (submission: Submission) => ReactNode }) {
  const { submissionId } = route.useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const submission = useQuery(submissionQuery(submissionId));
  const moderate = useMutation({
    mutationFn: (isSpam: boolean) => setSpam(submissionId, isSpam),
    onSuccess: async (_, isSpam) => {
      toast(isSpam ? "Moved to spam" : "Moved to the inbox");
      await queryClient.invalidateQueries({ queryKey: queryKeys.submissions.one(submissionId) });
      if (submission.data) await queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(submission.data.formId) });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteSubmission(submissionId),
    onSuccess: async () => {
      toast("Submission deleted");
      const formId = submission.data?.formId;
      if (formId) {
        await queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(formId) });
        await navigate({ to: "/forms/$formId", params: { formId }, search: {} });
      }
    },
  });
  if (submission.isPending) return <Loading />;
  if (submission.isError) return <FormError message={submission.error.message} />;
  const s = submission.data;
  const meta = s.metadata;
  const imported = importedOf(s);
  const error = [moderate.error, remove.error].find((e) => e instanceof ApiError)?.message;
  return (
    <>
      <PageHeader
        title={`Submission ${s.referenceId}`}
        description={`Received ${formatDateTime(s.createdAt)}${s.spam.isSpam ? " · in spam" : ""}${
          s.valuesDeletedAt ? " · delivered, values not kept" : ""
        }`}
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
      {imported && <ImportedNote imported={imported} />}
      {/* The form's retention for its current state (docs/privacy.md, "Retention"). */}
      <p className="mb-4 text-sm">
        {s.expiresAt
          ? `Deleted on ${formatDate(s.expiresAt)}, as the form's retention for ${s.spam.isSpam ? "spam" : "its inbox"} says.`
          : "Kept until deleted."}
      </p>
      <FormError message={error} />
      <div className="grid gap-4 lg:grid-cols-2">
        <TriagePanel lead={s} />
        {s.valuesDeletedAt ? (
          <ValuesDeletedNotice at={s.valuesDeletedAt} />
        ) : (
          <Pairs
            title="Fields"
            rows={Object.entries(s.data).map(([k, v]) => [k, <ValueLink key={k} field={k} value={valueText(v)} />])}
          />
        )}
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
        <section className={card} aria-label="Lead score">
          {s.lead ? (
            <>
              <h2 className="mb-3 text-lg font-medium">
                {gradeLabel(s.lead.grade)}, score {s.lead.score} of 100
              </h2>
              <ul className="list-disc pl-5 text-sm">
                {s.lead.reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            </>
          ) : (
            <>
              <h2 className="mb-3 text-lg font-medium">Lead: not graded yet</h2>
              <p className="text-sm">
                {s.spam.isSpam
                  ? "Spam is not graded. Marking it as not spam grades it."
                  : "It is graded a moment after it arrives."}
              </p>
            </>
          )}
        </section>
        <Pairs
          title="Metadata"
          rows={[
            ["Source", meta.source],
            ["Page (referrer)", meta.referer ?? ""],
            ["User agent", meta.userAgent ?? ""],
            ["IP address", meta.ip ?? ""],
            ["Dropped files", meta.droppedFiles.join(", ")],
            ["Ignored fields", meta.ignoredFields.join(", ")],
            ...(meta.replyTo ? ([["Reply to", meta.replyTo]] as [string, string][]) : []),
            ...(meta.subject ? ([["Subject", meta.subject]] as [string, string][]) : []),
          ]}
        />
        <Pairs title="Advertising platform" rows={adRows(meta.ads ?? {})} />
        {deliveries(s)}
      </div>
    </>
  );
}
