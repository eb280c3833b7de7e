import { httpHandler } from "../../lib/http/handler";
import { readSubmission } from "../../lib/submissions";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/submissions/{submissionId}"), {}, ({ principal, params }) =>
  readSubmission(principal, params.submissionId),
);
