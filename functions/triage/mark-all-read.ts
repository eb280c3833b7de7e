import { httpHandler } from "../../lib/http/handler";
import { markAllRead } from "../../lib/unread";
import { route } from "../routes";

export const handler = httpHandler(route("POST /api/v1/forms/{formId}/submissions/read"), {}, ({ principal, params }) =>
  markAllRead(principal, params.formId),
);
