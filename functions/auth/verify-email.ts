import { verifyEmail } from "../../lib/accounts";
import { publicHandler } from "../../lib/http/public-handler";
import * as z from "../../lib/validation";
import { route } from "../routes";

/** The token from the emailed link's fragment (`#token=`), POSTed by the dashboard or a client. */
const body = z.strictObject({ token: z.string().check(z.minLength(1), z.maxLength(200)) });

export const handler = publicHandler(route("POST /api/v1/auth/verify-email"), { body }, ({ body }) => verifyEmail(body.token));
