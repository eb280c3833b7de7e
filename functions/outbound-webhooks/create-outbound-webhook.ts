import { httpHandler } from "../../lib/http/handler";
import {
  chatOptionsInput,
  createEndpoint,
  endpointDescription,
  endpointEvents,
  endpointKind,
  endpointUrl,
} from "../../lib/outbound-webhooks/endpoint-changes";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  kind: z.optional(endpointKind),
  url: endpointUrl,
  description: z.optional(endpointDescription),
  chat: z.optional(chatOptionsInput),
  events: z.optional(endpointEvents),
});

export const handler = httpHandler(
  route("POST /api/v1/forms/{formId}/outbound-webhooks"),
  { body, status: 201 },
  ({ principal, params, body }) => createEndpoint(principal, params.formId, body),
);
