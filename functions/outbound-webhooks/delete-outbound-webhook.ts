import { httpHandler } from "../../lib/http/handler";
import { removeEndpoint } from "../../lib/outbound-webhooks/endpoints";
import { route } from "../routes";

export const handler = httpHandler(
  route("DELETE /api/v1/forms/{formId}/outbound-webhooks/{endpointId}"),
  {},
  ({ principal, params }) => removeEndpoint(principal, params.formId, params.endpointId),
);
