import type { Plan } from "../config";
import { AppError } from "../errors";
import type { Permission, Role } from "./permissions";
import type { Principal } from "./principal";

/**
 * What a route demands of its caller: the part of a route table entry (functions/routes.ts)
 * that authorization reads. Declared here, so the library never imports its callers' table.
 */
export interface RouteRequirements {
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
}

/** Applies the route's requirements, in a fixed order documented in docs/api.md. */
export function authorize(route: RouteRequirements, principal: Principal): void {
  if (route.auth === "session" && principal.kind !== "session") {
    throw new AppError("SESSION_REQUIRED", "This action needs a dashboard session; API keys cannot perform it");
  }
  if (route.platformAdmin && !(principal.kind === "session" && principal.platformAdmin)) {
    throw new AppError("PLATFORM_ADMIN_REQUIRED", "This action is for platform admins only");
  }
  if (route.roles && principal.kind === "session" && !route.roles.includes(principal.role)) {
    throw new AppError("ROLE_REQUIRED", `This action needs the role ${route.roles.join(" or ")}`);
  }
  if (route.plans && !route.plans.includes(principal.plan)) {
    throw new AppError("PLAN_REQUIRED", `This action needs the ${route.plans.join(" or ")} plan`);
  }
  if (route.permission && !principal.permissions.has(route.permission)) {
    throw new AppError("INSUFFICIENT_PERMISSION", `This action needs the permission ${route.permission}`);
  }
}
