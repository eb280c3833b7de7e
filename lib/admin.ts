import type { SessionPrincipal } from "./auth/principal";
import type { Plan } from "./config";
import { notFound } from "./errors";
import { nowIso } from "./ids";
import { setApiKeysPlan } from "./store/api-keys";
import { type Organization, listOrganizations as pageOfOrganizations, updateOrganization } from "./store/organizations";
import { changeOrganizationPlan } from "./store/plan-change";

const orgView = (org: Organization) => ({
  id: org.id,
  name: org.name,
  plan: org.plan,
  createdAt: org.createdAt,
  updatedAt: org.updatedAt,
});

export async function listOrganizations(limit: number, cursor?: string) {
  const page = await pageOfOrganizations(limit, cursor);
  return { organizations: page.items.map(orgView), nextCursor: page.nextCursor };
}

/**
 * Changes the plan and copies it onto the organization's API keys, which carry it so that
 * authenticating a key is one read: a downgrade below Agency stops the keys at once, and an
 * upgrade raises their rate limit.
 */
/**
 * Sets an organization's plan. A platform admin's change (`by`) is recorded in the affected
 * organization's audit log, the admin named as `platform_admin` with their own organization; the
 * local seed's change has no admin and writes no entry.
 */
export async function changePlan(orgId: string, plan: Plan, by?: { principal: SessionPrincipal; sourceIp: string }) {
  const now = nowIso();
  const org = by
    ? await changeOrganizationPlan(orgId, plan, now, (current) => ({
        orgId,
        action: "organization.plan_changed",
        actor: {
          type: "platform_admin",
          userId: by.principal.userId,
          name: by.principal.name,
          email: by.principal.email,
          orgId: by.principal.orgId,
          ip: by.sourceIp,
        },
        target: { type: "organization", id: orgId, name: current.name },
        details: { from: current.plan, to: plan },
      }))
    : await updateOrganization(orgId, { plan }, now);
  if (!org) throw notFound("Organization");
  await setApiKeysPlan(orgId, plan, org.apiKeyCount ?? 0);
  return { organization: orgView(org) };
}
