import { listOrganizations } from "../../lib/admin";
import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";

export const handler = httpHandler("GET /api/v1/admin/organizations", { query: pageQuery }, ({ query }) =>
  listOrganizations(query.limit, query.cursor),
);
