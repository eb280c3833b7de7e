import { httpHandler } from "../../lib/http/handler";
import { overviewQuery, siteOverview } from "../../lib/overview";
import { route } from "../routes";

export const handler = httpHandler(
  route("GET /api/v1/sites/{id}/overview"),
  { query: overviewQuery },
  ({ principal, params, query }) => siteOverview(principal, params.id, query),
);
