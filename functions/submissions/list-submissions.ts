import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import { listInbox, triageQuery } from "../../lib/submission-filters";
import { filtersQuery } from "../../lib/submissions";
import * as z from "../../lib/validation";
import { route } from "../routes";

const query = z.extend(z.extend(pageQuery, filtersQuery.shape), triageQuery.shape);

export const handler = httpHandler(
  route("GET /api/v1/forms/{formId}/submissions"),
  { query },
  ({ principal, params, query: { limit, cursor, ...filters } }) => listInbox(principal, params.formId, filters, limit, cursor),
);
