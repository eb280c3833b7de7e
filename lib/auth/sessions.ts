import { loadConfig } from "../config";
import { AppError } from "../errors";
import { sha256Hex } from "../ids";
import { asMember, asOrganization, getItem, getItems, type Member, type Session } from "../store/accounts";
import { keys } from "../store/keys";
import { rolePermissions } from "./permissions";
import type { SessionPrincipal } from "./principal";

export const unauthorized = () => new AppError("UNAUTHORIZED", "A valid bearer token is required");

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
  const [memberItem, orgItem] = await getItems([keys.member(session.orgId, session.userId), keys.organization(session.orgId)]);
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
