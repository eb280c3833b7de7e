import { requestEmailChange } from "../../lib/account-address";
import { httpHandler } from "../../lib/http/handler";
import { email } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ email, password: z.string().check(z.minLength(1), z.maxLength(200)) });

export const handler = httpHandler(route("POST /api/v1/auth/change-email"), { body, status: 202 }, ({ principal, body }) =>
  requestEmailChange(principal, body),
);
