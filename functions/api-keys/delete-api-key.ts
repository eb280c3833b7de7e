import { deleteApiKey } from "../../lib/api-keys";
import { httpHandler } from "../../lib/http/handler";
import * as z from "../../lib/validation";

const query = z.object({ permanent: z.optional(z.enum(["true", "false"])) });

export const handler = httpHandler("DELETE /api/v1/api-keys/{id}", { query }, ({ principal, params, query }) =>
  deleteApiKey(principal.orgId, params.id ?? "", query.permanent === "true"),
);
