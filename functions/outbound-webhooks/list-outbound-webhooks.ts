import { httpHandler } from "../../lib/http/handler";
import { listEndpoints } from "../../lib/outbound-webhooks/endpoints";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/forms/{formId}/outbound-webhooks"), {}, ({ principal, params }) =>
  listEndpoints(principal, params.formId),
);
