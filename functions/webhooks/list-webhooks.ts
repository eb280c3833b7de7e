import { httpHandler } from "../../lib/http/handler";
import * as z from "../../lib/validation";
import { listWebhooks } from "../../lib/webhooks";
import { route } from "../routes";

const query = z.object({ archived: z._default(z.enum(["true", "false"]), "false") });

export const handler = httpHandler(route("GET /api/v1/sites/{id}/webhooks"), { query }, ({ principal, params, query }) =>
  listWebhooks(principal, params.id, query.archived === "true"),
);
