import { setFormStatus } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";

export const handler = httpHandler("POST /api/v1/forms/{formId}/unpublish", {}, ({ principal, params }) =>
  setFormStatus(principal, params.formId ?? "", "draft"),
);
