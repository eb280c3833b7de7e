import { httpHandler } from "../../lib/http/handler";
import { findSite, siteView } from "../../lib/sites";

export const handler = httpHandler("GET /api/v1/sites/{id}", {}, async ({ principal, params }) => ({
  site: siteView(await findSite(principal.orgId, params.id ?? "")),
}));
