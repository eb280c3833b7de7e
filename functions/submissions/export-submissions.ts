import { exportAnswer, exportSubmissions } from "../../lib/export";
import { httpHandler } from "../../lib/http/handler";
import { filtersQuery } from "../../lib/submissions";
import * as z from "../../lib/validation";
import { route } from "../routes";

const query = z.extend(filtersQuery, { format: z._default(z.enum(["csv", "json"]), "csv") });

export const handler = httpHandler(
  route("GET /api/v1/forms/{formId}/submissions/export"),
  { query },
  async ({ principal, params, sourceIp, query: { format, ...filters } }) =>
    exportAnswer(await exportSubmissions(principal, sourceIp, params.formId, format, filters)),
);
