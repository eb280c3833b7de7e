import { createApiKey, MAX_EXPIRES_IN_DAYS, permissionList } from "../../lib/api-keys";
import { httpHandler } from "../../lib/http/handler";
import { name } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  name,
  permissions: z.optional(permissionList),
  expiresInDays: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_EXPIRES_IN_DAYS))),
});

// 200, not 201: spec part 4.1 answers a created key with 200.
export const handler = httpHandler(route("POST /api/v1/api-keys"), { body }, ({ principal, body, sourceIp }) =>
  createApiKey(principal, body, sourceIp),
);
