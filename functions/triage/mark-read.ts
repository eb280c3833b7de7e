import { httpHandler } from "../../lib/http/handler";
import { markRead } from "../../lib/unread";
import { route } from "../routes";

export const handler = httpHandler(route("PUT /api/v1/submissions/{submissionId}/read"), {}, ({ principal, params }) =>
  markRead(principal, params.submissionId),
);
