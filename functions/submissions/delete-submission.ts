import { httpHandler } from "../../lib/http/handler";
import { removeSubmission } from "../../lib/submissions";
import { route } from "../routes";

export const handler = httpHandler(route("DELETE /api/v1/submissions/{submissionId}"), {}, ({ principal, params, sourceIp }) =>
  removeSubmission(principal, sourceIp, params.submissionId),
);
