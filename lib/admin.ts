import type { Plan } from "./config";
import { notFound } from "./errors";
import { nowIso } from "./ids";
import { setApiKeysPlan } from "./store/api-keys";
import { type Organization, listOrganizations as pageOfOrganizations, updateOrganization } from "./store/organizations";

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
export async function changePlan(orgId: string, plan: Plan) {
  const org = await updateOrganization(orgId, { plan }, nowIso());
  if (!org) throw notFound("Organization");
  await setApiKeysPlan(orgId, plan, org.apiKeyCount ?? 0);
  return { organization: orgView(org) };
}
