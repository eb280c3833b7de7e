import { auditLogFilters, listAuditLog } from "../../lib/audit-log";
import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import * as z from "../../lib/validation";
import { route } from "../routes";

const query = z.extend(pageQuery, auditLogFilters.shape);

export const handler = httpHandler(
  route("GET /api/v1/audit-log"),
  { query },
  ({ principal, query: { limit, cursor, ...filters } }) => listAuditLog(principal.orgId, filters, limit, cursor),
);
