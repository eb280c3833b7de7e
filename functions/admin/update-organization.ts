import { changePlan } from "../../lib/admin";
import { httpHandler } from "../../lib/http/handler";
import { plan } from "../../lib/http/schemas";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ plan });

export const handler = httpHandler(
  route("PUT /api/v1/admin/organizations/{orgId}"),
  { body },
  ({ body, params, principal, sourceIp }) => changePlan(params.orgId, body.plan, { principal, sourceIp }),
);
