import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import document from "../../docs/openapi.json";
import { withRequestLine } from "../../lib/metrics/invocation";
import type { PublicRouteKey } from "../routes";

/** The route table entry this handler serves. */
export const ROUTE_KEY = "GET /api/v1/openapi.json" satisfies PublicRouteKey;

// Serialized once per cold start; esbuild inlines the committed document (npm run openapi).
const BODY = JSON.stringify(document);

/**
 * `GET /api/v1/openapi.json`: the API's own OpenAPI document, public. A constant answer, so a
 * plain handler rather than the middy chain, like the CORS preflight. It changes only with a
 * deployment: caches may keep it five minutes, then revalidate.
 */
export const handler = withRequestLine(
  ROUTE_KEY,
  async (): Promise<APIGatewayProxyStructuredResultV2> => ({
    statusCode: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "public, max-age=300",
      "x-content-type-options": "nosniff",
      "access-control-allow-origin": "*",
    },
    body: BODY,
  }),
);
