import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import { listDeliveries } from "../../lib/outbound/endpoints";
import { route } from "../routes";

export const handler = httpHandler(
  route("GET /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries"),
  { query: pageQuery },
  ({ principal, params, query }) => listDeliveries(principal, params.formId, params.endpointId, query.limit, query.cursor),
);
