import { publicHandler } from "../../lib/http/public-handler";
import { newPassword } from "../../lib/http/schemas";
import { resetPassword } from "../../lib/password-reset";
import * as z from "../../lib/validation";
import { route } from "../routes";

/** The token from the reset link's fragment (`#token=`), POSTed by the dashboard's page on a button. */
const body = z.strictObject({ token: z.string().check(z.minLength(1), z.maxLength(200)), password: newPassword });

export const handler = publicHandler(route("POST /api/v1/auth/password-reset/confirm"), { body }, ({ body }) =>
  resetPassword(body),
);
