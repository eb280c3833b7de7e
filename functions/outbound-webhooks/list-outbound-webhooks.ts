import { httpHandler } from "../../lib/http/handler";
import { listEndpoints } from "../../lib/outbound/endpoints";

export const handler = httpHandler("GET /api/v1/forms/{formId}/outbound-webhooks", {}, ({ principal, params }) =>
  listEndpoints(principal, params.formId ?? ""),
);
