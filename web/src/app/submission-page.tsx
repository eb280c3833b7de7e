import { SubmissionPage as Submission } from "../features/inbox/submission-page";
import { SubmissionDeliveries } from "../features/outbound/submission-deliveries";

/** A submission's detail (inbox), with where it was sent: its outbound deliveries (outbound). */
export function SubmissionPage() {
  return <Submission deliveries={(s) => <SubmissionDeliveries submissionId={s.id} formId={s.formId} />} />;
}
