import { publicHandler } from "../../lib/http/public-handler";
import { email, linkToken } from "../../lib/http/schemas";
import { requestReclaim } from "../../lib/reclaim-request";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  email,
  /** The invite the address could not accept (EMAIL_TAKEN): the reclaim link then joins its organization. */
  inviteToken: z.optional(linkToken),
});

export const handler = publicHandler(route("POST /api/v1/auth/reclaim-email"), { body, status: 202 }, ({ body }) =>
  requestReclaim(body),
);
