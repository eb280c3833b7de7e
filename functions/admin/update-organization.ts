import { changePlan } from "../../lib/admin";
import { httpHandler } from "../../lib/http/handler";
import { plan } from "../../lib/http/schemas";
import * as z from "../../lib/validation";

const body = z.strictObject({ plan });

export const handler = httpHandler("PUT /api/v1/admin/organizations/{orgId}", { body }, ({ body, params }) =>
  changePlan(params.orgId ?? "", body.plan),
);
