import { changeApiKey, permissionList } from "../../lib/api-keys";
import { httpHandler } from "../../lib/http/handler";
import { name } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  name: z.optional(name),
  permissions: z.optional(permissionList),
  /** Lowers the key's limit below its plan's (checked against the plan in lib); null follows the plan again. */
  rateLimitPerMin: z.optional(z.nullable(z.number().check(z.int(), z.minimum(1)))),
});

export const handler = httpHandler(route("PUT /api/v1/api-keys/{id}"), { body }, ({ principal, params, body }) =>
  changeApiKey(principal, params.id, body),
);
