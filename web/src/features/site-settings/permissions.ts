import { useQuery } from "@tanstack/react-query";
import { meQuery } from "../auth/session";

/** The permissions this page's controls need (docs/api.md, "Roles and permissions of a session"). */
export type SitePermission = "sites.edit" | "sites.delete" | "submissions.delete";

const WHAT: Record<SitePermission, string> = {
  "sites.edit": "change a site's settings",
  "sites.delete": "delete a site",
  "submissions.delete": "erase submissions",
};

/**
 * Whether the signed-in person may do `permission`, and if not, the sentence that says why
 * (read from `GET /api/v1/auth/me`, which the app shell has already loaded). The API checks
 * again on every request: this only keeps controls from being offered in vain.
 */
export function useAllowed(permission: SitePermission): { allowed: boolean; reason?: string } {
  const { data: me } = useQuery(meQuery);
  if (!me) return { allowed: false };
  if (me.permissions.includes(permission)) return { allowed: true };
  return { allowed: false, reason: `Your role (${me.role}) cannot ${WHAT[permission]}. Ask an owner or admin.` };
}
