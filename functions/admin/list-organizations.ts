import { listOrganizations } from "../../lib/admin";
import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/admin/organizations"), { query: pageQuery }, ({ query }) =>
  listOrganizations(query.limit, query.cursor),
);
