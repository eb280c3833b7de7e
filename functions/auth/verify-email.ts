import { confirmEmailLink } from "../../lib/account-address";
import { httpHandler } from "../../lib/http/handler";
import { linkToken } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

/**
 * The token from the emailed link's fragment (`#token=`), POSTed by the dashboard's confirm button
 * or a client, signed in as the account the link was issued for (docs/accounts.md).
 */
const body = z.strictObject({ token: linkToken });

export const handler = httpHandler(route("POST /api/v1/auth/verify-email"), { body }, ({ principal, body }) =>
  confirmEmailLink(principal, body.token),
);
