import { publicHandler } from "../../lib/http/public-handler";
import { jsonResponse, RawResponse } from "../../lib/http/response";
import { CORS_HEADERS } from "../../lib/intake/cors";
import { pingWebhook } from "../../lib/intake/intake";
import { route } from "../routes";

export const handler = publicHandler(
  route("GET /api/v1/incoming/{webhookId}"),
  { headers: CORS_HEADERS },
  async ({ params }) => new RawResponse(jsonResponse(200, await pingWebhook(params.webhookId))),
);
