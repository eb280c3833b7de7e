import { httpHandler } from "../../lib/http/handler";
import { removeSubmission } from "../../lib/submissions";

export const handler = httpHandler("DELETE /api/v1/submissions/{submissionId}", {}, ({ principal, params }) =>
  removeSubmission(principal, params.submissionId ?? ""),
);
