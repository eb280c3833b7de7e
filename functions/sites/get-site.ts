import { httpHandler } from "../../lib/http/handler";
import { findSite, siteView } from "../../lib/sites";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/sites/{id}"), {}, async ({ principal, params }) => ({
  site: siteView(await findSite(principal.orgId, params.id)),
}));
