import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { AppError } from "../lib/errors";
import { errorResponse, type HttpResult } from "../lib/http/response";
import { withRequestLine } from "../lib/metrics/invocation";
import type { PublicRouteKey } from "./routes";

/** The route table entry this handler serves. */
export const ROUTE_KEY = "$default" satisfies PublicRouteKey;

/**
 * The `$default` route: every request no other route matches gets the JSON 404 envelope. It
 * reads nothing and authenticates no one, so a plain handler rather than the middy chain: the
 * function loads in about the time of an empty one (docs/performance.md, section 1).
 */
export const handler = withRequestLine(ROUTE_KEY, async (event: APIGatewayProxyEventV2): Promise<HttpResult> => {
  const method = event.requestContext?.http?.method ?? "";
  const path = event.rawPath ?? "";
  return errorResponse(new AppError("NOT_FOUND", `No route for ${method} ${path}`.slice(0, 300)));
});
