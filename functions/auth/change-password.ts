import { changePassword } from "../../lib/account-security";
import { httpHandler } from "../../lib/http/handler";
import { newPassword } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ currentPassword: z.string().check(z.minLength(1), z.maxLength(200)), newPassword });

export const handler = httpHandler(route("PUT /api/v1/auth/password"), { body }, ({ principal, body }) =>
  changePassword(principal, body),
);
