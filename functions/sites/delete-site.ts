import { httpHandler } from "../../lib/http/handler";
import { removeSite } from "../../lib/sites";

export const handler = httpHandler("DELETE /api/v1/sites/{id}", {}, ({ principal, params }) =>
  removeSite(principal.orgId, params.id ?? ""),
);
