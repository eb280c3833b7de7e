import { httpHandler } from "../../lib/http/handler";
import { rotateWebhookSecret } from "../../lib/webhooks";
import { route } from "../routes";

export const handler = httpHandler(
  route("POST /api/v1/sites/{id}/webhooks/{webhookId}/rotate-secret"),
  {},
  ({ principal, params, sourceIp }) => rotateWebhookSecret(principal, sourceIp, params.id, params.webhookId),
);
