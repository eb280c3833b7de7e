import { duplicateForm } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";
import { name } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ name: z.optional(name) });

export const handler = httpHandler(
  route("POST /api/v1/forms/{formId}/duplicate"),
  { body, status: 201 },
  ({ principal, params, body }) => duplicateForm(principal, params.formId, body),
);
