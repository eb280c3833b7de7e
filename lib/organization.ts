import type { SessionPrincipal } from "./auth/principal";
import { notFound } from "./errors";
import { nowIso } from "./ids";
import { updateOrganization } from "./store/organizations";

/**
 * Renames the caller's own organization (permission `settings.org`, an owner or admin session).
 * Sessions read the organization on every request, so every member sees the new name at once.
 */
export async function renameOrganization(principal: SessionPrincipal, name: string) {
  const org = await updateOrganization(principal.orgId, { name }, nowIso());
  if (!org) throw notFound("Organization");
  return { organization: { id: org.id, name: org.name, plan: org.plan } };
}
