import { readForm } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";
import * as z from "../../lib/validation";
import { route } from "../routes";

/** `counts=false`: the form without its counts (the dashboard's inbox asks so; they are one small read either way). */
const query = z.object({ counts: z._default(z.enum(["true", "false"]), "true") });

export const handler = httpHandler(route("GET /api/v1/forms/{formId}"), { query }, ({ principal, params, query }) =>
  readForm(principal, params.formId, query.counts === "true"),
);
