import { describeEmailLink } from "../../lib/email-links";
import { publicHandler } from "../../lib/http/public-handler";
import { linkToken } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

/** The token from the emailed link's fragment; it is read, never used (docs/accounts.md). */
const body = z.strictObject({ token: linkToken });

export const handler = publicHandler(route("POST /api/v1/auth/email-links/describe"), { body }, ({ body }) =>
  describeEmailLink(body.token),
);
