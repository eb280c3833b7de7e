import { httpHandler } from "../../lib/http/handler";
import { email } from "../../lib/http/schemas";
import { eraseByEmail } from "../../lib/submissions";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  email,
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
});

export const handler = httpHandler(
  route("POST /api/v1/sites/{id}/submissions/erase"),
  { body },
  ({ principal, params, body, sourceIp }) => eraseByEmail(principal, sourceIp, params.id, body.email, body.cursor),
);
