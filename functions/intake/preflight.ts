import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { PREFLIGHT_HEADERS } from "../../lib/intake/cors";
import { withRequestLine } from "../../lib/metrics/invocation";
import type { PublicRouteKey } from "../routes";

/** The route table entry this handler serves. */
export const ROUTE_KEY = "OPTIONS /api/v1/incoming/{webhookId}" satisfies PublicRouteKey;

/**
 * `OPTIONS /api/v1/incoming/{webhookId}`: the CORS preflight of the intake URL, answered here
 * since the HTTP API's own CORS is off. A constant answer, so a plain handler rather than the
 * middy chain: it loads in about the time of an empty function, and a browser's first
 * `fetch()` submission (which waits for it) pays one small cold start instead of two large
 * ones (docs/performance.md, section 1).
 */
export const handler = withRequestLine(
  ROUTE_KEY,
  async (): Promise<APIGatewayProxyStructuredResultV2> => ({
    statusCode: 204,
    headers: { ...PREFLIGHT_HEADERS },
    body: "",
  }),
);
