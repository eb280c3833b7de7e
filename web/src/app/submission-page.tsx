import { SubmissionEmails } from "../features/emails/submission-emails";
import { SubmissionPage as Submission } from "../features/inbox/submission-page";
import { SubmissionDeliveries } from "../features/outbound/submission-deliveries";

/**
 * A submission's detail (inbox), with where it was sent: its emails and their fates (emails) and
 * its outbound deliveries (outbound).
 */
export function SubmissionPage() {
  return (
    <Submission
      deliveries={(s) => (
        <>
          <SubmissionEmails submissionId={s.id} />
          <SubmissionDeliveries submissionId={s.id} formId={s.formId} />
        </>
      )}
    />
  );
}
