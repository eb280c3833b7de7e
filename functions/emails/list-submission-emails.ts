import { listSubmissionEmails } from "../../lib/emails/submission-emails";
import { httpHandler } from "../../lib/http/handler";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/submissions/{submissionId}/emails"), {}, ({ principal, params }) =>
  listSubmissionEmails(principal, params.submissionId),
);
