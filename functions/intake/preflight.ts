import { httpHandler } from "../../lib/http/handler";
import { RawResponse } from "../../lib/http/response";
import { PREFLIGHT_HEADERS } from "../../lib/intake/cors";

/** CORS preflight of the intake URL: answered here, since the HTTP API's own CORS is off. */
export const handler = httpHandler("OPTIONS /api/v1/incoming/{webhookId}", { headers: PREFLIGHT_HEADERS }, async () =>
  new RawResponse({ statusCode: 204, headers: {}, body: "" }),
);
