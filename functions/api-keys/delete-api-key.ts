import { deleteApiKey } from "../../lib/api-keys";
import { httpHandler } from "../../lib/http/handler";
import * as z from "../../lib/validation";
import { route } from "../routes";

const query = z.object({ permanent: z.optional(z.enum(["true", "false"])) });

export const handler = httpHandler(route("DELETE /api/v1/api-keys/{id}"), { query }, ({ principal, params, query, sourceIp }) =>
  deleteApiKey(principal, sourceIp, params.id, query.permanent === "true"),
);
