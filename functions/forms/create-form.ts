import { fieldsInput, settingsInput } from "../../lib/form-inputs";
import { createForm } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";
import { name } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  name,
  fields: z.optional(fieldsInput),
  settings: z.optional(settingsInput),
  status: z.optional(z.enum(["draft", "published"])),
});

export const handler = httpHandler(route("POST /api/v1/sites/{id}/forms"), { body, status: 201 }, ({ principal, params, body }) =>
  createForm(principal, params.id, body),
);
