import { httpHandler } from "../../lib/http/handler";
import { readSubmission } from "../../lib/submissions";

export const handler = httpHandler("GET /api/v1/submissions/{submissionId}", {}, ({ principal, params }) =>
  readSubmission(principal, params.submissionId ?? ""),
);
