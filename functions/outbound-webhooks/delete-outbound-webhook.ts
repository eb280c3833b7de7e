import { httpHandler } from "../../lib/http/handler";
import { removeEndpoint } from "../../lib/outbound/endpoints";

export const handler = httpHandler(
  "DELETE /api/v1/forms/{formId}/outbound-webhooks/{endpointId}",
  {},
  ({ principal, params }) => removeEndpoint(principal, params.formId ?? "", params.endpointId ?? ""),
);
