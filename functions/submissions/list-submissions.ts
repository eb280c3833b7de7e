import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import { filtersQuery, listSubmissions } from "../../lib/submissions";
import * as z from "../../lib/validation";
import { route } from "../routes";

const query = z.extend(pageQuery, filtersQuery.shape);

export const handler = httpHandler(
  route("GET /api/v1/forms/{formId}/submissions"),
  { query },
  ({ principal, params, query: { limit, cursor, ...filters } }) =>
    listSubmissions(principal, params.formId, filters, limit, cursor),
);
