import { decoyHash, hashPassword, verifyPassword } from "./auth/passwords";
import type { Role } from "./auth/permissions";
import type { SessionPrincipal } from "./auth/principal";
import { newToken } from "./auth/tokens";
import { loadConfig, type Plan } from "./config";
import { AppError } from "./errors";
import { newId, nowIso, sha256Hex } from "./ids";
import {
  asEmailClaim,
  asInvite,
  asMember,
  asOrganization,
  claimFirstPlatformAdmin,
  createAccount,
  deleteSession,
  getItems,
  type Member,
  type Organization,
  putInvite,
  putSession,
  removeMember,
  updateMemberRole,
} from "./store/accounts";
import { counterKey, incrementCounter } from "./store/counters";
import { keys } from "./store/keys";
import { queryPage } from "./store/pagination";

export interface AuthResult {
  token: string;
  expiresAt: string;
  user: { id: string; email: string; name: string };
  organization: { id: string; name: string; plan: Plan };
  role: Role;
}

/** Failed logins allowed per window before 429 (docs/api.md, "Login throttling"). */
export const LOGIN_THROTTLE = { windowSeconds: 15 * 60, perEmail: 10, perIp: 50 } as const;

function newSession(member: Pick<Member, "userId" | "orgId">) {
  const token = newToken("session");
  const createdAt = nowIso();
  const expiresAt = new Date(Date.now() + loadConfig().SESSION_TTL_HOURS * 3600_000).toISOString();
  return { token, tokenHash: sha256Hex(token), session: { ...member, createdAt, expiresAt } };
}

const authResult = (token: string, expiresAt: string, member: Member, org: Organization): AuthResult => ({
  token,
  expiresAt,
  user: { id: member.userId, email: member.email, name: member.name },
  organization: { id: org.id, name: org.name, plan: org.plan },
  role: member.role,
});

let firstAdminClaimed = false;

async function maybeClaimFirstAdmin(member: Member): Promise<void> {
  // With PLATFORM_ADMIN_EMAILS unset, the first account of the deployment becomes its admin.
  if (loadConfig().PLATFORM_ADMIN_EMAILS.length > 0 || firstAdminClaimed) return;
  const won = await claimFirstPlatformAdmin(member.orgId, member.userId);
  firstAdminClaimed = true;
  if (won) member.platformAdmin = true;
}

export async function signup(input: {
  email: string;
  password: string;
  name: string;
  organizationName?: string;
  inviteToken?: string;
}): Promise<AuthResult> {
  const config = loadConfig();
  const email = input.email.toLowerCase();
  const now = nowIso();
  let org: Organization;
  let role: Role;
  let inviteHash: string | undefined;
  let isNewOrg = false;

  if (input.inviteToken) {
    inviteHash = sha256Hex(input.inviteToken);
    const [inviteItem] = await getItems([keys.invite(inviteHash)]);
    const invite = asInvite(inviteItem);
    if (!invite || Date.parse(invite.expiresAt) <= Date.now() || invite.email !== email) {
      throw new AppError("INVITE_INVALID", "The invite is unknown, used, expired or for another email");
    }
    const [orgItem] = await getItems([keys.organization(invite.orgId)]);
    const found = asOrganization(orgItem);
    if (!found) throw new AppError("INVITE_INVALID", "The inviting organization no longer exists");
    org = found;
    role = invite.role;
  } else {
    if (config.SIGNUP_MODE === "invite-only") {
      throw new AppError("SIGNUP_CLOSED", "Signup is by invitation only on this deployment");
    }
    org = {
      id: newId("organization"),
      name: input.organizationName ?? "",
      plan: config.DEFAULT_PLAN,
      createdAt: now,
      updatedAt: now,
    };
    role = "owner";
    isNewOrg = true;
  }

  const member: Member = {
    userId: newId("user"),
    orgId: org.id,
    email,
    name: input.name,
    role,
    passwordHash: await hashPassword(input.password, config.PASSWORD_HASH_COST),
    createdAt: now,
  };
  const { token, tokenHash, session } = newSession(member);
  const outcome = await createAccount({
    member,
    ...(isNewOrg ? { organization: org } : {}),
    sessionHash: tokenHash,
    session,
    ...(inviteHash ? { inviteHash } : {}),
    now,
  });
  if (outcome === "EMAIL_TAKEN") throw new AppError("EMAIL_TAKEN", "An account with this email already exists");
  if (outcome === "INVITE_INVALID") throw new AppError("INVITE_INVALID", "The invite is used or expired");
  await maybeClaimFirstAdmin(member);
  return authResult(token, session.expiresAt, member, org);
}

const invalidCredentials = () => new AppError("INVALID_CREDENTIALS", "The email or password is wrong");

/**
 * One batch reads the email claim and both failure counters; a correct password then needs the
 * member and organization (a second batch) and the session write.
 */
export async function login(input: { email: string; password: string; sourceIp: string }): Promise<AuthResult> {
  const email = input.email.toLowerCase();
  const { windowSeconds, perEmail, perIp } = LOGIN_THROTTLE;
  const [claimItem, emailCounter, ipCounter] = await getItems([
    keys.email(email),
    counterKey("login-email", email, windowSeconds),
    counterKey("login-ip", input.sourceIp, windowSeconds),
  ]);
  const failures = (item: Record<string, unknown> | undefined) => Number(item?.count ?? 0);
  if (failures(emailCounter) >= perEmail || failures(ipCounter) >= perIp) {
    const retryAfter = windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds);
    throw new AppError("RATE_LIMITED", "Too many failed logins; try again later", undefined, {
      "retry-after": String(retryAfter),
    });
  }
  const fail = async (): Promise<never> => {
    await Promise.all([
      incrementCounter("login-email", email, windowSeconds),
      incrementCounter("login-ip", input.sourceIp, windowSeconds),
    ]);
    throw invalidCredentials();
  };

  const claim = asEmailClaim(claimItem);
  if (!claim) {
    await verifyPassword(input.password, await decoyHash(loadConfig().PASSWORD_HASH_COST));
    return fail();
  }
  const [memberItem, orgItem] = await getItems([keys.member(claim.orgId, claim.userId), keys.organization(claim.orgId)]);
  const member = asMember(memberItem);
  const org = asOrganization(orgItem);
  if (!member || !org || !(await verifyPassword(input.password, member.passwordHash))) return fail();
  const { token, tokenHash, session } = newSession(member);
  await putSession(tokenHash, session);
  return authResult(token, session.expiresAt, member, org);
}

export const logout = (principal: SessionPrincipal) => deleteSession(principal.tokenHash);

export function me(principal: SessionPrincipal) {
  return {
    user: { id: principal.userId, email: principal.email, name: principal.name },
    organization: { id: principal.orgId, name: principal.organizationName, plan: principal.plan },
    role: principal.role,
    permissions: [...principal.permissions],
    platformAdmin: principal.platformAdmin,
  };
}

export async function createInvite(principal: SessionPrincipal, email: string, role: Exclude<Role, "owner">) {
  const token = newToken("invite");
  const createdAt = nowIso();
  const expiresAt = new Date(Date.now() + loadConfig().INVITE_TTL_HOURS * 3600_000).toISOString();
  await putInvite(sha256Hex(token), {
    orgId: principal.orgId,
    email: email.toLowerCase(),
    role,
    invitedBy: principal.userId,
    createdAt,
    expiresAt,
  });
  return { inviteToken: token, email: email.toLowerCase(), role, expiresAt };
}

const memberView = (m: Member) => ({ id: m.userId, email: m.email, name: m.name, role: m.role, createdAt: m.createdAt });

export async function listMembers(orgId: string, limit: number, cursor?: string) {
  const page = await queryPage({
    partition: keys.organization(orgId).pk,
    prefix: keys.memberPrefix(),
    limit,
    ...(cursor ? { cursor } : {}),
    map: (item) => memberView(asMember(item) as Member),
  });
  return { members: page.items, nextCursor: page.nextCursor };
}

export async function changeRole(principal: SessionPrincipal, userId: string, role: Exclude<Role, "owner">) {
  const result = await updateMemberRole(principal.orgId, userId, role);
  if (result === undefined) throw new AppError("NOT_FOUND", "Member not found");
  if (result === "OWNER") throw new AppError("CANNOT_CHANGE_OWNER", "The owner's role cannot be changed");
  return { member: memberView(result) };
}

export async function removeTeamMember(principal: SessionPrincipal, userId: string) {
  if (userId === principal.userId) {
    throw new AppError("CONFLICT", "You cannot remove yourself; ask another admin or the owner");
  }
  const [item] = await getItems([keys.member(principal.orgId, userId)]);
  const member = asMember(item);
  if (!member) throw new AppError("NOT_FOUND", "Member not found");
  const outcome = await removeMember(member);
  if (outcome === "OWNER") throw new AppError("CANNOT_CHANGE_OWNER", "The owner cannot be removed");
  if (outcome === "NOT_FOUND") throw new AppError("NOT_FOUND", "Member not found");
  return { message: "Member removed" };
}
