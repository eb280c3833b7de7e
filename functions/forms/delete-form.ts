import { archiveForm, deleteForm } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";
import * as z from "../../lib/validation";
import { route } from "../routes";

const query = z.object({ permanent: z._default(z.enum(["true", "false"]), "false") });

export const handler = httpHandler(route("DELETE /api/v1/forms/{formId}"), { query }, ({ principal, params, query, sourceIp }) =>
  query.permanent === "true" ? deleteForm(principal, sourceIp, params.formId) : archiveForm(principal, params.formId),
);
