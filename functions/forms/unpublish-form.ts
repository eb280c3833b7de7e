import { setFormStatus } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";
import { route } from "../routes";

export const handler = httpHandler(route("POST /api/v1/forms/{formId}/unpublish"), {}, ({ principal, params }) =>
  setFormStatus(principal, params.formId, "draft"),
);
