import type { Principal } from "../auth/principal";
import { notFound } from "../errors";
import { shownUrl } from "../outbound/chat/kinds";
import { deliveryIdFor } from "../outbound/payload";
import { getForm } from "../store/forms";
import { getDeliveries } from "../store/outbound-deliveries";
import { kindOf, listFormEndpoints } from "../store/outbound-endpoints";
import { getSubmission } from "../store/submissions";
import { deliveryView } from "./endpoints";

/**
 * The outbound deliveries of one submission (its detail view: "did the CRM get this lead?").
 * A delivery's id is derived from (submission, endpoint) (lib/outbound/payload.ts), so no index is needed:
 * the submission (organization check), then its form and the form's endpoints in parallel, then
 * the deliveries by id in one BatchGetItem: three round trips whatever the log's size. A delivery
 * to an endpoint deleted since is not listed (its log went with it from the dashboard's view).
 */
export async function listSubmissionDeliveries(principal: Principal, submissionId: string) {
  const submission = await getSubmission(submissionId);
  if (!submission || submission.orgId !== principal.orgId) throw notFound("Submission");
  const [form, endpoints] = await Promise.all([getForm(submission.formId), listFormEndpoints(submission.formId)]);
  if (!form || form.deletedAt) throw notFound("Submission");
  const mine = endpoints.filter((endpoint) => endpoint.orgId === principal.orgId);
  const byId = new Map(mine.map((endpoint) => [deliveryIdFor(submission.id, endpoint.id), endpoint]));
  const deliveries = await getDeliveries([...byId.keys()]);
  return {
    deliveries: deliveries.flatMap((delivery) => {
      const endpoint = byId.get(delivery.id);
      if (!endpoint || delivery.submissionId !== submission.id) return [];
      return [
        {
          ...deliveryView(delivery),
          endpoint: { id: endpoint.id, kind: kindOf(endpoint), url: shownUrl(endpoint), description: endpoint.description },
        },
      ];
    }),
  };
}
