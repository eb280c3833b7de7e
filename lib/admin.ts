import type { Plan } from "./config";
import { notFound } from "./errors";
import { nowIso } from "./ids";
import { asOrganization, type Organization, updateOrganization } from "./store/accounts";
import { setApiKeysPlan } from "./store/api-keys";
import { keys } from "./store/keys";
import { queryPage } from "./store/pagination";

const orgView = (org: Organization) => ({
  id: org.id,
  name: org.name,
  plan: org.plan,
  createdAt: org.createdAt,
  updatedAt: org.updatedAt,
});

export async function listOrganizations(limit: number, cursor?: string) {
  const page = await queryPage({
    partition: keys.organizationIndexPartition(),
    index: "gsi1",
    limit,
    newestFirst: true,
    ...(cursor ? { cursor } : {}),
    map: (item) => orgView(asOrganization(item) as Organization),
  });
  return { organizations: page.items, nextCursor: page.nextCursor };
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
