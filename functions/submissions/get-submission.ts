import { httpHandler } from "../../lib/http/handler";
import { readSubmissionWithUnread } from "../../lib/unread";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/submissions/{submissionId}"), {}, ({ principal, params }) =>
  readSubmissionWithUnread(principal, params.submissionId),
);
