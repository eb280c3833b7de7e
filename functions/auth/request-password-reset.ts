import { publicHandler } from "../../lib/http/public-handler";
import { email } from "../../lib/http/schemas";
import { requestPasswordReset } from "../../lib/password-reset";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ email });

/** 202 with the same body whether or not an account uses the address (docs/accounts.md). */
export const handler = publicHandler(route("POST /api/v1/auth/password-reset"), { body, status: 202 }, ({ body, sourceIp }) =>
  requestPasswordReset({ email: body.email, sourceIp }),
);
