import { httpHandler } from "../../lib/http/handler";
import { removeSite } from "../../lib/sites";
import { route } from "../routes";

export const handler = httpHandler(route("DELETE /api/v1/sites/{id}"), {}, ({ principal, params, sourceIp }) =>
  removeSite(principal, sourceIp, params.id),
);
