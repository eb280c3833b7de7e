import { listSuppressedRecipients } from "../../lib/emails/suppressed-recipients";
import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import { route } from "../routes";

export const handler = httpHandler(
  route("GET /api/v1/forms/{formId}/suppressed-recipients"),
  { query: pageQuery },
  ({ principal, params, query }) => listSuppressedRecipients(principal, params.formId, query.limit, query.cursor),
);
