import type { Plan } from "./config";
import { notFound } from "./errors";
import { nowIso } from "./ids";
import { asOrganization, type Organization, setOrganizationPlan } from "./store/accounts";
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

export async function changePlan(orgId: string, plan: Plan) {
  const org = await setOrganizationPlan(orgId, plan, nowIso());
  if (!org) throw notFound("Organization");
  return { organization: orgView(org) };
}
