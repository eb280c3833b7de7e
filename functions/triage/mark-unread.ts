import { httpHandler } from "../../lib/http/handler";
import { markUnread } from "../../lib/unread";
import { route } from "../routes";

export const handler = httpHandler(route("DELETE /api/v1/submissions/{submissionId}/read"), {}, ({ principal, params }) =>
  markUnread(principal, params.submissionId),
);
