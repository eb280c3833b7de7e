import type { Plan } from "../config";
import { PERMISSIONS, type Permission, type Role } from "../store/shapes";

export { GRANTABLE_ROLES, PERMISSIONS, type Permission, ROLES, type Role } from "../store/shapes";

/** Permissions no API key may ever hold (spec 5.2 rules 2 and 3): dashboard sessions only. */
export const RESTRICTED_PERMISSIONS: ReadonlySet<Permission> = new Set([
  "settings.email",
  "settings.billing",
  "settings.org",
  "team.invite",
  "team.manage",
  // The audit log names members, their addresses and IPs: owners and admins read it in the dashboard (docs/privacy.md, "Audit log").
  "audit_log.read",
  // Spec 5.2 rule 3: file uploads are dashboard-session actions; an import uploads another service's export (docs/importing.md).
  "submissions.import",
]);

/**
 * What a session may do, by role. Owners and admins hold every permission; members work with
 * forms and submissions and can look at sites and the team, but cannot create, change or delete
 * sites, delete submissions, or touch settings and the team (docs/api.md, "Roles").
 */
const MEMBER_PERMISSIONS: readonly Permission[] = [
  "forms.view",
  "forms.create",
  "forms.edit",
  "forms.publish",
  "submissions.view",
  "submissions.export",
  "sites.view",
  "team.view",
];

export function rolePermissions(role: Role): readonly Permission[] {
  return role === "member" ? MEMBER_PERMISSIONS : PERMISSIONS;
}

/** Plans whose organizations may use API keys, and each plan's per-key rate limit per minute. */
export const API_KEY_RATE_LIMITS: Partial<Record<Plan, number>> = { agency: 300, enterprise: 600 };
