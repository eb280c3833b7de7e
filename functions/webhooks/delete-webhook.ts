import { httpHandler } from "../../lib/http/handler";
import * as z from "../../lib/validation";
import { archiveWebhook, deleteWebhookPermanently } from "../../lib/webhooks";
import { route } from "../routes";

const query = z.object({ permanent: z._default(z.enum(["true", "false"]), "false") });

export const handler = httpHandler(
  route("DELETE /api/v1/sites/{id}/webhooks/{webhookId}"),
  { query },
  ({ principal, params, query, sourceIp }) =>
    query.permanent === "true"
      ? deleteWebhookPermanently(principal, sourceIp, params.id, params.webhookId)
      : archiveWebhook(principal, params.id, params.webhookId),
);
