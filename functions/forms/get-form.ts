import { readForm } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";

export const handler = httpHandler("GET /api/v1/forms/{formId}", {}, ({ principal, params }) =>
  readForm(principal, params.formId ?? ""),
);
