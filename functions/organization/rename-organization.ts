import { httpHandler } from "../../lib/http/handler";
import { name } from "../../lib/http/schemas";
import { renameOrganization } from "../../lib/organization";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ name });

export const handler = httpHandler(route("PUT /api/v1/organization"), { body }, ({ principal, body }) =>
  renameOrganization(principal, body.name),
);
