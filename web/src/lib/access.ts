import { useSuspenseQuery } from "@tanstack/react-query";
import type { Answer } from "../api/types";
import { meQuery } from "./session";

/**
 * What the signed-in person may do, read from `GET /v1/auth/me` (its `role`, `permissions`,
 * `organization.plan` and `platformAdmin`): the one place the dashboard turns a role and a plan
 * into shown, hidden or disabled controls, and says why. The API stays the judge; this only keeps
 * people from reaching for a control that would fail.
 */
export type Me = Answer<"meResponse">;
export type Permission = Me["permissions"][number];
export type Plan = Me["organization"]["plan"];

export type Role = Me["role"];

export const PLAN_NAMES: Record<Plan, string> = { free: "Free", pro: "Pro", agency: "Agency", enterprise: "Enterprise" };
export const ROLE_NAMES: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member" };

/** The plans whose organizations may use API keys (docs/api.md, "API keys"). */
export const API_KEY_PLANS: readonly Plan[] = ["agency", "enterprise"];

/** Permissions no API key may hold (spec 5.2 rules 2 and 3): they stay with signed-in owners and admins. */
export const RESTRICTED_KEY_PERMISSIONS: readonly Permission[] = [
  "settings.email",
  "settings.billing",
  "settings.org",
  "team.invite",
  "team.manage",
  "audit_log.read",
  "submissions.import",
];

/** The signed-in person (the app's route loads it before any page renders). */
export const useMe = (): Me => useSuspenseQuery(meQuery).data;

export const can = (me: Me, permission: Permission): boolean => me.permissions.includes(permission);

/** Why a control is not offered, in words; undefined when it is. */
export type Refusal = string | undefined;

const roleCannot = (what: string) => (me: Me) => `Your role (${me.role}) cannot ${what}. Ask an owner or admin.`;

/** Why each permission a page checks is missing (docs/api.md, "Roles and permissions of a session"). */
const WHY_NOT: Partial<Record<Permission, (me: Me) => string>> = {
  "team.invite": () => "Only the owner and admins can invite people.",
  "team.manage": () => "Only the owner and admins can change roles or remove members.",
  "settings.org": () => "Only the owner and admins can rename the organization.",
  "sites.edit": roleCannot("change a site's settings"),
  "sites.delete": roleCannot("delete a site"),
  "submissions.delete": roleCannot("erase submissions"),
  "submissions.import": roleCannot("import submissions"),
};

/** Why the signed-in person may not use a control that needs `permission`; undefined when they may. */
export function refusal(me: Me, permission: Permission): Refusal {
  if (can(me, permission)) return undefined;
  return (WHY_NOT[permission] ?? roleCannot("do this"))(me);
}

/** Owners and admins: the roles the API lets run the organization (its ROLE_REQUIRED routes). */
const runsOrganization = (me: Me): boolean => me.role === "owner" || me.role === "admin";

/** API keys: owners and admins on Agency or Enterprise (the API's own rule: ROLE_REQUIRED, then PLAN_REQUIRED). */
export function apiKeysRefusal(me: Me): Refusal {
  if (!runsOrganization(me)) {
    return `API keys are managed by the organization's owner and admins; your role is ${me.role}.`;
  }
  if (!API_KEY_PLANS.includes(me.organization.plan)) {
    return `API keys come with the Agency and Enterprise plans; ${me.organization.name} is on the ${PLAN_NAMES[me.organization.plan]} plan. A platform admin can change the plan.`;
  }
  return undefined;
}

/**
 * Requests about a person's data are the organization's to answer: the API takes them from
 * owners and admins (ROLE_REQUIRED for members), with the permission each needs.
 */
export function privacyRefusal(me: Me): Refusal {
  if (runsOrganization(me)) return undefined;
  return `Only the owner and admins answer requests about a person's data; your role is ${me.role}.`;
}

/** A lead's notes: each person edits and deletes their own; owners and admins delete anyone's. */
export const mayDeleteNote = (me: Me, note: { authorId: string }): boolean =>
  note.authorId === me.user.id || runsOrganization(me);

/** Whether the person may change `member`'s role or remove them: the owner's role never changes. */
export const mayManageMember = (me: Me, member: { role: Role }): boolean => can(me, "team.manage") && member.role !== "owner";
