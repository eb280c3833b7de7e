import { httpHandler } from "../../lib/http/handler";
import { siteDetail } from "../../lib/sites";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/sites/{id}"), {}, ({ principal, params }) =>
  siteDetail(principal.orgId, params.id),
);
