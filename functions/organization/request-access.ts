import { httpHandler } from "../../lib/http/handler";
import { email } from "../../lib/http/schemas";
import { requestAccess } from "../../lib/subject-requests";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  email,
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(8192))),
});

export const handler = httpHandler(
  route("POST /api/v1/organization/access-requests"),
  { body },
  ({ principal, sourceIp, body }) => requestAccess(principal, sourceIp, body.email, body.cursor),
);
