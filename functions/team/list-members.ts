import { listMembers } from "../../lib/accounts";
import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/team"), { query: pageQuery }, ({ principal, query }) =>
  listMembers(principal.orgId, query.limit, query.cursor),
);
