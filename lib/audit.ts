import type { Principal } from "./auth/principal";
import type { AuditActor, AuditDetails, AuditEntryInput, AuditTarget } from "./store/audit-log";

/**
 * The audit log's vocabulary (docs/privacy.md, "Audit log"): every action an organization's log
 * records, as `<object>.<verb>`. An action that changes data in the table records its entry in
 * the same transaction (lib/store/audit-log.ts); a refused action records nothing.
 */
export const AUDIT_ACTIONS = [
  // Data leaving or being removed
  "submissions.exported",
  "submission.deleted",
  "submissions.deleted",
  "submissions.erased",
  "submissions.access_requested",
  "submissions.imported",
  // Keys and people
  "api_key.created",
  "api_key.revoked",
  "api_key.deleted",
  "member.invited",
  "member.removed",
  "member.role_changed",
  // Settings that decide what is kept or who can send
  "form.retention_changed",
  "form.forward_only_changed",
  "site.captcha_secret_changed",
  "webhook.secret_rotated",
  "site.deleted",
  "form.deleted",
  "organization.plan_changed",
  "webhook.deleted",
  "site.default_retention_changed",
  // Triage of submissions (docs/triage.md, "Audit")
  "submission.updated",
  "submissions.updated",
  "submission.note_added",
  "submission.note_edited",
  "submission.note_deleted",
  "tag.created",
  "tag.updated",
  "tag.deleted",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who a request acts as, for its entry: a member (name and address as they are now: the entry
 * keeps them when the member later leaves) or an API key, with the request's client address.
 */
export function auditActor(principal: Principal, sourceIp: string): AuditActor {
  if (principal.kind === "apiKey") return { type: "api_key", keyId: principal.keyId, ip: sourceIp };
  return { type: "member", userId: principal.userId, name: principal.name, email: principal.email, ip: sourceIp };
}

/**
 * An entry of the principal's organization: `audited(principal, ip, "api_key.revoked", {type:
 * "api_key", id, name})`, handed to the store function that makes the change.
 */
export function audited(
  principal: Principal,
  sourceIp: string,
  action: AuditAction,
  target: AuditTarget,
  details?: AuditDetails,
): AuditEntryInput {
  return { orgId: principal.orgId, action, actor: auditActor(principal, sourceIp), target, ...(details ? { details } : {}) };
}
