import { httpHandler } from "../../lib/http/handler";
import { rotateWebhookSecret } from "../../lib/webhooks";

export const handler = httpHandler(
  "POST /api/v1/sites/{id}/webhooks/{webhookId}/rotate-secret",
  {},
  ({ principal, params }) => rotateWebhookSecret(principal, params.id ?? "", params.webhookId ?? ""),
);
