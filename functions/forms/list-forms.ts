import { listForms } from "../../lib/forms";
import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import * as z from "../../lib/validation";
import { route } from "../routes";

const query = z.extend(pageQuery, { archived: z._default(z.enum(["true", "false"]), "false") });

export const handler = httpHandler(route("GET /api/v1/sites/{id}/forms"), { query }, ({ principal, params, query }) =>
  listForms(principal, params.id, query.archived === "true", query.limit, query.cursor),
);
