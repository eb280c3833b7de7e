import { liftSuppression } from "../../lib/emails/suppressed-recipients";
import { httpHandler } from "../../lib/http/handler";
import { route } from "../routes";

export const handler = httpHandler(
  route("DELETE /api/v1/forms/{formId}/suppressed-recipients/{recipientId}"),
  {},
  ({ principal, params }) => liftSuppression(principal, params.formId, params.recipientId),
);
