import { httpHandler } from "../../lib/http/handler";
import { name } from "../../lib/http/schemas";
import { WEBHOOK_SOURCES } from "../../lib/store/webhooks";
import * as z from "../../lib/validation";
import { compatibility } from "../../lib/webhook-compatibility";
import { editWebhook } from "../../lib/webhooks";
import { route } from "../routes";

const body = z.strictObject({
  name: z.optional(name),
  source: z.optional(z.enum(WEBHOOK_SOURCES)),
  isEnabled: z.optional(z.boolean()),
  restore: z.optional(z.boolean()),
  formId: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(64)))),
  compatibility: z.optional(compatibility),
});

export const handler = httpHandler(
  route("PUT /api/v1/sites/{id}/webhooks/{webhookId}"),
  { body },
  ({ principal, params, body }) => editWebhook(principal, params.id, params.webhookId, body),
);
