import { listOrganizationApiKeys } from "../../lib/api-keys";
import { httpHandler } from "../../lib/http/handler";

export const handler = httpHandler("GET /api/v1/api-keys", {}, ({ principal }) =>
  listOrganizationApiKeys(principal.orgId),
);
