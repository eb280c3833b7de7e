import { getApiKeyDetails } from "../../lib/api-keys";
import { httpHandler } from "../../lib/http/handler";

export const handler = httpHandler("GET /api/v1/api-keys/{id}", {}, ({ principal, params }) =>
  getApiKeyDetails(principal.orgId, params.id ?? ""),
);
