import { renameSelf } from "../../lib/account-security";
import { httpHandler } from "../../lib/http/handler";
import { name } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ name });

export const handler = httpHandler(route("PUT /api/v1/auth/me"), { body }, ({ principal, body }) =>
  renameSelf(principal, body.name),
);
