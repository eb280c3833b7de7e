import { fieldsInput, retentionInput, settingsInput } from "../../lib/form-inputs";
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
  /** Unset (or either key left out): the site's defaults for new forms. */
  retention: z.optional(retentionInput),
});

export const handler = httpHandler(route("POST /api/v1/sites/{id}/forms"), { body, status: 201 }, ({ principal, params, body }) =>
  createForm(principal, params.id, body),
);
