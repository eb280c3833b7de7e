import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import { listDeliveries } from "../../lib/outbound-webhooks/endpoints";
import { DELIVERY_STATUSES } from "../../lib/store/outbound-deliveries";
import * as z from "../../lib/validation";
import { route } from "../routes";

const query = z.extend(pageQuery, { status: z.optional(z.enum(DELIVERY_STATUSES)) });

export const handler = httpHandler(
  route("GET /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries"),
  { query },
  ({ principal, params, query }) =>
    listDeliveries(principal, params.formId, params.endpointId, query.limit, query.cursor, query.status),
);
