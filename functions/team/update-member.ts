import { changeRole } from "../../lib/accounts";
import { httpHandler } from "../../lib/http/handler";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ role: z.enum(["admin", "member"]) });

export const handler = httpHandler(
  route("PUT /api/v1/team/members/{userId}"),
  { body },
  ({ principal, body, params, sourceIp }) => changeRole(principal, sourceIp, params.userId, body.role),
);
