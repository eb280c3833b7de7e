import { loadConfig } from "../config";
import { AppError } from "../errors";
import { sha256Hex } from "../ids";
import { getMemberWithOrganization, type Member } from "../store/members";
import { getSession } from "../store/sessions";
import { rolePermissions } from "./permissions";
import type { SessionPrincipal } from "./principal";

export const unauthorized = () => new AppError("UNAUTHORIZED", "A valid bearer token is required");
export const sessionEnded = () =>
  new AppError(
    "SESSION_ENDED",
    "The session was ended (a password change or reset, or a sign-out everywhere else); log in again",
  );

export function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match?.[1]) throw unauthorized();
  return match[1];
}

/**
 * Platform admin is conferred by the address (PLATFORM_ADMIN_EMAILS), or locally by being the
 * first account (FIRST_ACCOUNT_ADMIN): either way only once the address is verified, so nobody
 * gets it by signing up with, or inviting themselves as, an address they cannot read.
 */
export function isPlatformAdmin(member: Pick<Member, "email" | "platformAdmin" | "emailVerifiedAt">): boolean {
  if (!member.emailVerifiedAt) return false;
  const config = loadConfig();
  const listed = config.PLATFORM_ADMIN_EMAILS;
  if (listed.length > 0) return listed.includes(member.email.toLowerCase());
  return config.FIRST_ACCOUNT_ADMIN === "true" && member.platformAdmin === true;
}

/**
 * Session lookup: the session by token hash, then its member and organization in one batch
 * (two sequential round trips). The member is read on every request, so a removed member or a
 * changed role takes effect at once, and so does the end of the member's other sessions: a
 * session is valid only while its epoch is the member's (docs/accounts.md, "Ending sessions").
 */
export async function resolveSession(token: string): Promise<SessionPrincipal> {
  const tokenHash = sha256Hex(token);
  const session = await getSession(tokenHash);
  if (!session) throw unauthorized();
  // TTL deletion is lazy (often days late): the expiry is checked here, not trusted to TTL.
  if (Date.parse(session.expiresAt) <= Date.now()) {
    throw new AppError("SESSION_EXPIRED", "The session has expired; log in again");
  }
  const { member, organization: org } = await getMemberWithOrganization(session.orgId, session.userId);
  if (!member || !org) throw unauthorized();
  const sessionEpoch = member.sessionEpoch ?? 0;
  if ((session.epoch ?? 0) !== sessionEpoch) throw sessionEnded();
  return {
    kind: "session",
    tokenHash,
    sessionEpoch,
    userId: member.userId,
    orgId: org.id,
    email: member.email,
    emailVerified: member.emailVerifiedAt !== undefined,
    emailLost: member.emailLostAt !== undefined,
    name: member.name,
    role: member.role,
    plan: org.plan,
    organizationName: org.name,
    platformAdmin: isPlatformAdmin(member),
    permissions: new Set(rolePermissions(member.role)),
  };
}
