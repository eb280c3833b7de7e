import { fieldsInput, settingsInput } from "../../lib/form-inputs";
import { editForm } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";
import { name } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  name: z.optional(name),
  fields: z.optional(fieldsInput),
  settings: z.optional(settingsInput),
  restore: z.optional(z.boolean()),
  /** The `updatedAt` the client read: 409 CONFLICT when the form changed since (lib/forms.ts). */
  ifUpdatedAt: z.optional(z.iso.datetime()),
});

export const handler = httpHandler(route("PUT /api/v1/forms/{formId}"), { body }, ({ principal, params, body, sourceIp }) =>
  editForm(principal, params.formId, body, sourceIp),
);
