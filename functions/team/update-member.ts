import { changeRole } from "../../lib/accounts";
import { GRANTABLE_ROLES } from "../../lib/auth/permissions";
import { httpHandler } from "../../lib/http/handler";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ role: z.enum(GRANTABLE_ROLES) });

export const handler = httpHandler(
  route("PUT /api/v1/team/members/{userId}"),
  { body },
  ({ principal, body, params, sourceIp }) => changeRole(principal, sourceIp, params.userId, body.role),
);
