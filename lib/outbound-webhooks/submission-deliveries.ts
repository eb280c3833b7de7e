import type { Principal } from "../auth/principal";
import { notFound } from "../errors";
import { shownUrl } from "../outbound/chat/kinds";
import { deliveryIdFor } from "../outbound/payload";
import { getForm } from "../store/forms";
import { getDeliveries } from "../store/outbound-deliveries";
import { kindOf, listFormEndpoints } from "../store/outbound-endpoints";
import { recentChangeIds } from "../store/submission-changes";
import { getSubmission } from "../store/submissions";
import { deliveryView } from "./endpoints";

/** Timeline entries one list reads to find the newest changes (note events among them are skipped). */
const TIMELINE_EXAMINED = 50;
/** Keys of one BatchGetItem: the created deliveries and those of the newest changes share it. */
const MAX_KEYS = 100;

/**
 * The outbound deliveries of one submission (its detail view: "did the CRM get this lead?").
 * A delivery's id is derived from (submission, endpoint), or for a `submission.updated` one from
 * (change, endpoint) (lib/outbound/payload.ts), so no index is needed: the submission
 * (organization check), then its form, the form's endpoints and the ids of its newest change
 * entries in parallel, then the deliveries by id in one BatchGetItem: three round trips whatever
 * the log's size. Listed: each endpoint's `submission.created` delivery, then the deliveries of
 * the newest changes, newest first, as many changes as fit one BatchGetItem beside them (9 with
 * the 10 endpoints a form may have; the endpoint's own deliveries list shows every one). A
 * delivery to an endpoint deleted since is not listed (its log went with it from the dashboard's view).
 */
export async function listSubmissionDeliveries(principal: Principal, submissionId: string) {
  const submission = await getSubmission(submissionId);
  if (!submission || submission.orgId !== principal.orgId) throw notFound("Submission");
  const [form, endpoints, changeIds] = await Promise.all([
    getForm(submission.formId),
    listFormEndpoints(submission.formId),
    recentChangeIds(submission.id, TIMELINE_EXAMINED),
  ]);
  if (!form || form.deletedAt) throw notFound("Submission");
  const mine = endpoints.filter((endpoint) => endpoint.orgId === principal.orgId);
  const events = [submission.id, ...changeIds.slice(0, Math.floor(MAX_KEYS / Math.max(1, mine.length)) - 1)];
  const byId = new Map(
    events.flatMap((eventId) => mine.map((endpoint) => [deliveryIdFor(eventId, endpoint.id), endpoint] as const)),
  );
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
