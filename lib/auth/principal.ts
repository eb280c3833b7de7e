import type { RouteDef } from "../../functions/routes";
import { resolveApiKey } from "./api-key-auth";
import { loadConfig, type Plan } from "../config";
import { AppError } from "../errors";
import { sha256Hex } from "../ids";
import { type Permission, type Role, rolePermissions } from "./permissions";
import { asMember, asOrganization, getItem, getItems, type Member, type Session } from "../store/accounts";
import { keys } from "../store/keys";
import { tokenKind } from "./tokens";

export interface SessionPrincipal {
  kind: "session";
  tokenHash: string;
  userId: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  plan: Plan;
  organizationName: string;
  platformAdmin: boolean;
  permissions: ReadonlySet<Permission>;
}

export interface ApiKeyPrincipal {
  kind: "apiKey";
  keyId: string;
  orgId: string;
  plan: Plan;
  permissions: ReadonlySet<Permission>;
  /** Response headers every API-key response carries (X-RateLimit-*). */
  responseHeaders: Record<string, string>;
  /** Bookkeeping started during authentication (lastUsedAt), awaited before the response. */
  pending?: Promise<void>;
}

export type Principal = SessionPrincipal | ApiKeyPrincipal;

const unauthorized = () => new AppError("UNAUTHORIZED", "A valid bearer token is required");

export function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match?.[1]) throw unauthorized();
  return match[1];
}

export function isPlatformAdmin(member: Pick<Member, "email" | "platformAdmin">): boolean {
  const listed = loadConfig().PLATFORM_ADMIN_EMAILS;
  return listed.length > 0 ? listed.includes(member.email.toLowerCase()) : member.platformAdmin === true;
}

/**
 * Session lookup: the session by token hash, then its member and organization in one batch
 * (two sequential round trips). The member is read on every request, so a removed member or a
 * changed role takes effect at once.
 */
export async function resolveSession(token: string): Promise<SessionPrincipal> {
  const tokenHash = sha256Hex(token);
  const session = await getItem<Session>(keys.session(tokenHash));
  if (!session) throw unauthorized();
  // TTL deletion is lazy (often days late): the expiry is checked here, not trusted to TTL.
  if (Date.parse(session.expiresAt) <= Date.now()) {
    throw new AppError("SESSION_EXPIRED", "The session has expired; log in again");
  }
  const [memberItem, orgItem] = await getItems([
    keys.member(session.orgId, session.userId),
    keys.organization(session.orgId),
  ]);
  const member = asMember(memberItem);
  const org = asOrganization(orgItem);
  if (!member || !org) throw unauthorized();
  return {
    kind: "session",
    tokenHash,
    userId: member.userId,
    orgId: org.id,
    email: member.email,
    name: member.name,
    role: member.role,
    plan: org.plan,
    organizationName: org.name,
    platformAdmin: isPlatformAdmin(member),
    permissions: new Set(rolePermissions(member.role)),
  };
}

export async function authenticate(authorization: string | undefined): Promise<Principal> {
  const token = bearerToken(authorization);
  const kind = tokenKind(token);
  if (kind === "session") return resolveSession(token);
  if (kind === "apiKey") return resolveApiKey(token);
  throw unauthorized();
}

/** Applies the route's requirements, in a fixed order documented in docs/api.md. */
export function authorize(route: RouteDef, principal: Principal): void {
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
