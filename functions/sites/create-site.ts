import { httpHandler } from "../../lib/http/handler";
import { domain, name } from "../../lib/http/schemas";
import { createSite } from "../../lib/sites";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ name, domain: z.optional(z.nullable(domain)) });

export const handler = httpHandler(route("POST /api/v1/sites"), { body, status: 201 }, ({ principal, body }) =>
  createSite(principal.orgId, body),
);
