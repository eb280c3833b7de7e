import { httpHandler } from "../../lib/http/handler";
import {
  chatOptionsInput,
  editEndpoint,
  endpointDescription,
  endpointEvents,
  endpointUrl,
} from "../../lib/outbound-webhooks/endpoint-changes";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  url: z.optional(endpointUrl),
  description: z.optional(endpointDescription),
  isEnabled: z.optional(z.boolean()),
  chat: z.optional(chatOptionsInput),
  events: z.optional(endpointEvents),
});

export const handler = httpHandler(
  route("PUT /api/v1/forms/{formId}/outbound-webhooks/{endpointId}"),
  { body },
  ({ principal, params, body }) => editEndpoint(principal, params.formId, params.endpointId, body),
);
