import { httpHandler } from "../../lib/http/handler";
import { readWebhook } from "../../lib/webhooks";

export const handler = httpHandler("GET /api/v1/sites/{id}/webhooks/{webhookId}", {}, ({ principal, params }) =>
  readWebhook(principal, params.id ?? "", params.webhookId ?? ""),
);
