import type { Plan } from "../lib/config";
import type { Permission, Role } from "../lib/permissions";

/**
 * The one route table. `infra/http-api.ts` creates one function and one HTTP API route per
 * entry, `infra/local/gateway.ts` serves exactly these entries, and a test asserts that every
 * handler file under functions/ is listed here.
 */
export interface RouteDef {
  /** API Gateway's own route key format. */
  route: string;
  /** Handler module under functions/, without extension; it exports `handler`. */
  handler: string;
  /**
   * `public`: no credentials. `session`: a dashboard session token only (an API key gets 403
   * SESSION_REQUIRED). `bearer`: a session or an API key.
   */
  auth: "public" | "session" | "bearer";
  permission?: Permission;
  /** Session roles allowed (403 ROLE_REQUIRED otherwise). */
  roles?: readonly Role[];
  /** Organization plans allowed (403 PLAN_REQUIRED otherwise). */
  plans?: readonly Plan[];
  /** Only platform admins (403 PLATFORM_ADMIN_REQUIRED otherwise). */
  platformAdmin?: boolean;
  /** What the function may do to the table: read-only by default. */
  table: "none" | "read" | "write";
  /** Whether the function may send to the intake queue. */
  queue?: "send";
  memoryMb?: number;
  timeoutSeconds?: number;
}

const OWNER_OR_ADMIN = ["owner", "admin"] as const;

export const ROUTES = [
  { route: "POST /api/v1/auth/signup", handler: "auth/signup", auth: "public", table: "write" },
  { route: "POST /api/v1/auth/login", handler: "auth/login", auth: "public", table: "write" },
  { route: "POST /api/v1/auth/logout", handler: "auth/logout", auth: "session", table: "write" },
  { route: "GET /api/v1/auth/me", handler: "auth/me", auth: "session", table: "read" },

  { route: "GET /api/v1/team", handler: "team/list-members", auth: "bearer", permission: "team.view", table: "read" },
  {
    route: "POST /api/v1/team/invites",
    handler: "team/create-invite",
    auth: "session",
    permission: "team.invite",
    roles: OWNER_OR_ADMIN,
    table: "write",
  },
  {
    route: "PUT /api/v1/team/members/{userId}",
    handler: "team/update-member",
    auth: "session",
    permission: "team.manage",
    roles: OWNER_OR_ADMIN,
    table: "write",
  },
  {
    route: "DELETE /api/v1/team/members/{userId}",
    handler: "team/remove-member",
    auth: "session",
    permission: "team.manage",
    roles: OWNER_OR_ADMIN,
    table: "write",
  },

  {
    route: "GET /api/v1/admin/organizations",
    handler: "admin/list-organizations",
    auth: "session",
    platformAdmin: true,
    table: "read",
  },
  {
    route: "PUT /api/v1/admin/organizations/{orgId}",
    handler: "admin/update-organization",
    auth: "session",
    platformAdmin: true,
    table: "write",
  },

  { route: "POST /api/v1/sites", handler: "sites/create-site", auth: "bearer", permission: "sites.create", table: "write" },
  { route: "GET /api/v1/sites", handler: "sites/list-sites", auth: "bearer", permission: "sites.view", table: "read" },
  { route: "GET /api/v1/sites/{id}", handler: "sites/get-site", auth: "bearer", permission: "sites.view", table: "read" },
  { route: "PUT /api/v1/sites/{id}", handler: "sites/update-site", auth: "bearer", permission: "sites.edit", table: "write" },
  {
    route: "DELETE /api/v1/sites/{id}",
    handler: "sites/delete-site",
    auth: "bearer",
    permission: "sites.delete",
    table: "write",
  },

  /** Everything no other route matches: the JSON 404 envelope, in AWS too. */
  { route: "$default", handler: "not-found", auth: "public", table: "none" },
] as const satisfies readonly RouteDef[];

export type RouteKey = (typeof ROUTES)[number]["route"];

export function routeDef(key: RouteKey): RouteDef {
  const def = ROUTES.find((r) => r.route === key);
  if (!def) throw new Error(`No route ${key}`);
  return def;
}
