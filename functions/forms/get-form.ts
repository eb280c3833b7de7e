import { readForm } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/forms/{formId}"), {}, ({ principal, params }) =>
  readForm(principal, params.formId),
);
