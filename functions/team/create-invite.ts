import { createInvite } from "../../lib/accounts";
import { GRANTABLE_ROLES } from "../../lib/auth/permissions";
import { httpHandler } from "../../lib/http/handler";
import { email } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ email, role: z.enum(GRANTABLE_ROLES) });

export const handler = httpHandler(route("POST /api/v1/team/invites"), { body, status: 201 }, ({ principal, body, sourceIp }) =>
  createInvite(principal, sourceIp, body.email, body.role),
);
