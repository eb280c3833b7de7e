import { httpHandler } from "../../lib/http/handler";
import { retryDelivery } from "../../lib/outbound-webhooks/retry";
import { route } from "../routes";

export const handler = httpHandler(
  route("POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries/{deliveryId}/retry"),
  { status: 202 },
  ({ principal, params }) => retryDelivery(principal, params.formId, params.endpointId, params.deliveryId),
);
