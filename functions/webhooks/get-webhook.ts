import { httpHandler } from "../../lib/http/handler";
import { readWebhook } from "../../lib/webhooks";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/sites/{id}/webhooks/{webhookId}"), {}, ({ principal, params }) =>
  readWebhook(principal, params.id, params.webhookId),
);
