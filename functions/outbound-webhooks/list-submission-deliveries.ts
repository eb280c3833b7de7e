import { httpHandler } from "../../lib/http/handler";
import { listSubmissionDeliveries } from "../../lib/outbound-webhooks/submission-deliveries";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/submissions/{submissionId}/deliveries"), {}, ({ principal, params }) =>
  listSubmissionDeliveries(principal, params.submissionId),
);
