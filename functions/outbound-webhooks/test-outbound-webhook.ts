import { httpHandler } from "../../lib/http/handler";
import { sendTestEvent } from "../../lib/outbound-webhooks/test-event";
import { route } from "../routes";

export const handler = httpHandler(
  route("POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/test"),
  { status: 202 },
  ({ principal, params }) => sendTestEvent(principal, params.formId, params.endpointId),
);
