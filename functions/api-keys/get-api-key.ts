import { getApiKeyDetails } from "../../lib/api-keys";
import { httpHandler } from "../../lib/http/handler";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/api-keys/{id}"), {}, ({ principal, params }) =>
  getApiKeyDetails(principal.orgId, params.id),
);
