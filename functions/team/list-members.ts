import { listMembers } from "../../lib/accounts";
import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";

export const handler = httpHandler("GET /api/v1/team", { query: pageQuery }, ({ principal, query }) =>
  listMembers(principal.orgId, query.limit, query.cursor),
);
