import { requestReclaim } from "../../lib/accounts";
import { publicHandler } from "../../lib/http/public-handler";
import { email } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ email });

export const handler = publicHandler(route("POST /api/v1/auth/reclaim-email"), { body, status: 202 }, ({ body }) =>
  requestReclaim(body),
);
