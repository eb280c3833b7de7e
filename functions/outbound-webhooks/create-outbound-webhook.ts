import { httpHandler } from "../../lib/http/handler";
import { createEndpoint, endpointDescription, endpointUrl } from "../../lib/outbound-webhooks/endpoint-changes";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ url: endpointUrl, description: z.optional(endpointDescription) });

export const handler = httpHandler(
  route("POST /api/v1/forms/{formId}/outbound-webhooks"),
  { body, status: 201 },
  ({ principal, params, body }) => createEndpoint(principal, params.formId, body),
);
