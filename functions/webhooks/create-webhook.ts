import { httpHandler } from "../../lib/http/handler";
import { name } from "../../lib/http/schemas";
import { WEBHOOK_SOURCES } from "../../lib/store/webhooks";
import * as z from "../../lib/validation";
import { compatibility } from "../../lib/webhook-compatibility";
import { createWebhook } from "../../lib/webhooks";
import { route } from "../routes";

const body = z.strictObject({
  name,
  source: z.optional(z.enum(WEBHOOK_SOURCES)),
  formId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  compatibility: z.optional(compatibility),
});

export const handler = httpHandler(
  route("POST /api/v1/sites/{id}/webhooks"),
  { body, status: 201 },
  ({ principal, params, body }) => createWebhook(principal, params.id, body),
);
