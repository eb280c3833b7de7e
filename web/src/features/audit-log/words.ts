import type { AuditAction, AuditEntry } from "./queries";

/** Each action in words (docs/privacy.md, "Audit log"), in the order the filter offers them. */
export const ACTION_LABELS: Record<AuditAction, string> = {
  "submissions.exported": "Exported submissions",
  "submission.deleted": "Deleted a submission",
  "submissions.deleted": "Deleted submissions (bulk)",
  "submissions.erased": "Erased submissions by email",
  "submissions.access_requested": "Answered an access request",
  "submissions.imported": "Imported submissions",
  "api_key.created": "Created an API key",
  "api_key.revoked": "Revoked an API key",
  "api_key.deleted": "Deleted an API key",
  "member.invited": "Invited a member",
  "member.removed": "Removed a member",
  "member.role_changed": "Changed a member's role",
  "form.retention_changed": "Changed a form's retention",
  "form.forward_only_changed": "Changed a form's forward-only setting",
  "site.captcha_secret_changed": "Changed a site's captcha secret",
  "webhook.secret_rotated": "Rotated a webhook's secret",
  "site.deleted": "Deleted a site",
  "form.deleted": "Deleted a form",
  "organization.plan_changed": "Changed the plan",
  "webhook.deleted": "Deleted a webhook",
  "site.default_retention_changed": "Changed a site's default retention",
  "submission.updated": "Changed a submission's status, owner or tags",
  "submissions.updated": "Changed submissions' status, owner or tags (bulk)",
  "submission.note_added": "Added a note",
  "submission.note_edited": "Edited a note",
  "submission.note_deleted": "Deleted a note",
  "tag.created": "Created a tag",
  "tag.updated": "Changed a tag",
  "tag.deleted": "Deleted a tag",
};

export const actionLabel = (action: string): string => ACTION_LABELS[action as AuditAction] ?? action;

/** Who acted, in words: a member's name and address, an API key's id, a platform admin. */
export function actorLabel(actor: AuditEntry["actor"]): string {
  if (actor.type === "api_key") return `API key ${actor.keyId}`;
  if (actor.type === "platform_admin") return `${actor.name} (platform admin, ${actor.email})`;
  return `${actor.name} (${actor.email})`;
}

/** The id an actor filter takes: a member's user id or a key's id. */
export const actorId = (actor: AuditEntry["actor"]): string => (actor.type === "api_key" ? actor.keyId : actor.userId);

/** An entry's details as "name: value" pairs, for the table's last column. */
export const detailPairs = (details: AuditEntry["details"]): [string, string][] =>
  Object.entries(details)
    .filter(([, value]) => value !== null && value !== "")
    .map(([name, value]) => [name, String(value)]);
