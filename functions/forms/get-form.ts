import { readForm } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";
import * as z from "../../lib/validation";
import { route } from "../routes";

/** `counts=false`: the form without its counts, which read every submission (the dashboard's inbox). */
const query = z.object({ counts: z._default(z.enum(["true", "false"]), "true") });

export const handler = httpHandler(route("GET /api/v1/forms/{formId}"), { query }, ({ principal, params, query }) =>
  readForm(principal, params.formId, query.counts === "true"),
);
