import type { listAuditLog } from "../../lib/audit-log";
import * as z from "../../lib/validation";
import { id, nextCursor, timestamp } from "./schemas";
import { answers } from "./views";

// lib/store/audit-log.ts AuditActor: a member, an API key, or a platform admin of another organization.
const actor = z.union([
  z.strictObject({ type: z.literal("member"), userId: id, name: z.string(), email: z.string(), ip: z.string() }),
  z.strictObject({ type: z.literal("api_key"), keyId: id, ip: z.string() }),
  z.strictObject({
    type: z.literal("platform_admin"),
    userId: id,
    name: z.string(),
    email: z.string(),
    orgId: id,
    ip: z.string(),
  }),
]);

// lib/audit-log.ts entryView
const auditEntry = z.strictObject({
  id,
  action: z.string(),
  actor,
  target: z.strictObject({ type: z.string(), id: z.string(), name: z.optional(z.string()) }),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  at: timestamp,
});

/** `GET /api/v1/audit-log`'s success body. */
export const auditLogPage = answers<typeof listAuditLog>()(z.strictObject({ entries: z.array(auditEntry), nextCursor }));
