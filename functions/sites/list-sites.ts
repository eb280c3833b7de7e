import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import { sitesOf } from "../../lib/sites";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/sites"), { query: pageQuery }, ({ principal, query }) =>
  sitesOf(principal.orgId, query.limit, query.cursor),
);
