import { AUDIT_ACTIONS } from "./audit";
import { dateBounds, isoDate } from "./date-range";
import { type AuditEntry, pageOfAuditEntries } from "./store/audit-log";
import * as z from "./validation";

/** Entries read at most for one page of a filtered list (whole DynamoDB pages: ./store/filtered-query.ts). */
const MAX_EXAMINED = 2000;

/** The list's filters as query parameters (docs/api.md, "Audit log"). */
export const auditLogFilters = /* @__PURE__ */ z.shared(() =>
  z.object({
    action: z.optional(z.enum(AUDIT_ACTIONS)),
    /** A member's user id or an API key's id. */
    actor: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    from: z.optional(isoDate),
    to: z.optional(isoDate),
  }),
);

export interface AuditLogQuery {
  action?: string;
  actor?: string;
  from?: string;
  to?: string;
}

const entryView = (entry: AuditEntry) => ({
  id: entry.id,
  action: entry.action,
  actor: entry.actor,
  target: entry.target,
  details: entry.details,
  at: entry.at,
});

/**
 * A page of the organization's log, newest first. `to` is inclusive: a date includes its whole
 * (UTC) day, a date-time its own millisecond; both bounds are the sort key's condition.
 */
export async function listAuditLog(orgId: string, filters: AuditLogQuery, limit: number, cursor?: string) {
  const { from, before } = dateBounds(filters.from, filters.to);
  const page = await pageOfAuditEntries(
    orgId,
    {
      ...(filters.action ? { action: filters.action } : {}),
      ...(filters.actor ? { actorId: filters.actor } : {}),
      ...(from ? { from } : {}),
      ...(before ? { before } : {}),
    },
    { limit, ...(cursor ? { cursor } : {}), maxExamined: MAX_EXAMINED },
  );
  return { entries: page.items.map(entryView), nextCursor: page.nextCursor };
}
