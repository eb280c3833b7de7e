import { audited } from "./audit";
import { decoyHash, hashPassword, verifyPassword } from "./auth/passwords";
import type { Role } from "./auth/permissions";
import type { SessionPrincipal } from "./auth/principal";
import { newToken } from "./auth/tokens";
import { type EmailContent, sendEmail } from "./aws/ses";
import { firstAccountRule, loadConfig, type Plan } from "./config";
import { checkedInvite, emailLink, linkInvalid, newEmailLink, throttleEmailLinks } from "./email-links";
import { AppError } from "./errors";
import { newId, nowIso, sha256Hex } from "./ids";
import { describeError, log } from "./log";
import * as metrics from "./metrics/record";
import { type AccountEmailAbout, type AccountEmailKind, accountEmail } from "./notifications/account-email";
import { creatorRoleUpdates, keysCreatedBy, settleCreatorRole } from "./store/api-keys";
import { incrementCounter } from "./store/counters";
import { putSessionIfCurrent } from "./store/credentials";
import { type EmailClaim, getEmailClaim } from "./store/email-claims";
import { putEmailToken } from "./store/email-links";
import { getInvite, putInvite } from "./store/invites";
import {
  getMember,
  getMemberWithOrganization,
  type Member,
  listMembers as pageOfMembers,
  removeMember,
  updateMemberRole,
} from "./store/members";
import { getOrganization, type Organization } from "./store/organizations";
import type { Outcome } from "./store/outcomes";
import { claimFirstPlatformAdmin } from "./store/platform-admin";
import { deleteSession } from "./store/sessions";
import { createAccount } from "./store/signup";

export interface AuthResult {
  token: string;
  expiresAt: string;
  user: { id: string; email: string; emailVerified: boolean; name: string };
  organization: { id: string; name: string; plan: Plan };
  role: Role;
}

/** Failed logins allowed per window before 429 (docs/api.md, "Login throttling"). */
export const LOGIN_THROTTLE = { windowSeconds: 15 * 60, perEmail: 10, perIp: 50 } as const;

/** A new session of `member`, of its current session epoch (lib/store/credentials.ts); only these fields are stored. */
function newSession(member: Pick<Member, "userId" | "orgId" | "sessionEpoch">) {
  const token = newToken("session");
  const createdAt = nowIso();
  const expiresAt = new Date(Date.now() + loadConfig().SESSION_TTL_HOURS * 3600_000).toISOString();
  const session = { userId: member.userId, orgId: member.orgId, epoch: member.sessionEpoch ?? 0, createdAt, expiresAt };
  return { token, tokenHash: sha256Hex(token), session };
}

const authResult = (token: string, expiresAt: string, member: Member, org: Organization): AuthResult => ({
  token,
  expiresAt,
  user: { id: member.userId, email: member.email, emailVerified: member.emailVerifiedAt !== undefined, name: member.name },
  organization: { id: org.id, name: org.name, plan: org.plan },
  role: member.role,
});

/**
 * Sends an account email through SES. A failure is logged and not raised: the account exists
 * and works unverified, and `POST /auth/verify-email/resend` sends another link.
 */
export async function sendAccountEmail(
  kind: AccountEmailKind,
  to: string,
  token: string,
  about: AccountEmailAbout = {},
): Promise<boolean> {
  const config = loadConfig();
  return sendLogged(kind, accountEmail(kind, to, token, config.BASE_URL, config.EMAIL_LINK_TTL_HOURS, about));
}

/** Sends `message`; a failure is logged (with `kind`, never the message) and answered as false. */
export async function sendLogged(kind: string, message: EmailContent): Promise<boolean> {
  try {
    await sendEmail({ ...message, kind });
    return true;
  } catch (error) {
    log.warn("account email not sent", { kind, ...describeError(error) });
    return false;
  }
}

let firstAdminClaimed = false;

async function maybeClaimFirstAdmin(member: Member): Promise<void> {
  // Locally, with PLATFORM_ADMIN_EMAILS unset, the first account becomes the admin (once verified).
  const config = loadConfig();
  if (!firstAccountRule(config) || firstAdminClaimed) return;
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
  reclaimToken?: string;
}): Promise<AuthResult> {
  const config = loadConfig();
  const email = input.email.toLowerCase();
  const now = nowIso();
  let org: Organization;
  let role: Role;
  let isNewOrg = false;
  const reclaim = input.reclaimToken ? await reclaimFor(input.reclaimToken, email) : undefined;
  // A reclaim asked from an invite joins that invite's organization unless told otherwise.
  const inviteHash = input.inviteToken
    ? sha256Hex(input.inviteToken)
    : input.organizationName === undefined
      ? reclaim?.token.invite?.hash
      : undefined;

  if (inviteHash) {
    const invite = checkedInvite(await getInvite(inviteHash), email);
    const found = await getOrganization(invite.orgId);
    if (!found) throw new AppError("INVITE_INVALID", "The inviting organization no longer exists");
    org = found;
    role = invite.role;
  } else {
    if (input.organizationName === undefined) {
      const message = "Give organizationName to create an organization, or inviteToken to join one";
      throw new AppError("VALIDATION_ERROR", message, [{ path: "organizationName", message }]);
    }
    // A reclaim proves an address, not an admission: without an invite it is signup as any other.
    if (config.SIGNUP_MODE === "invite-only") {
      throw new AppError("SIGNUP_CLOSED", "Signup is by invitation only on this deployment");
    }
    org = {
      id: newId("organization"),
      name: input.organizationName,
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
    // The link came to this address: using it proves the address.
    ...(reclaim ? { emailVerifiedAt: now } : {}),
    createdAt: now,
  };
  const { token, tokenHash, session } = newSession(member);
  const named = { accountName: member.name, organizationName: org.name };
  const verification = reclaim ? undefined : newEmailLink("verify", member, now, named);
  const outcome = await createAccount({
    member,
    ...(isNewOrg ? { organization: org } : {}),
    sessionHash: tokenHash,
    session,
    ...(inviteHash ? { inviteHash } : {}),
    ...(verification ? { verification: { tokenHash: verification.tokenHash, token: verification.item } } : {}),
    ...(reclaim ? { reclaim } : {}),
    now,
  });
  if (outcome === "EMAIL_TAKEN") throw emailTaken();
  if (outcome === "INVITE_INVALID") throw new AppError("INVITE_INVALID", "The invite is used or expired");
  if (outcome === "LINK_INVALID") throw linkInvalid();
  await maybeClaimFirstAdmin(member);
  if (verification) await sendAccountEmail("verify", email, verification.token, named);
  return authResult(token, session.expiresAt, member, org);
}

export const emailTaken = () =>
  new AppError(
    "EMAIL_TAKEN",
    "An account with this email already exists. If it is your address and that account never verified it, POST /api/v1/auth/reclaim-email sends you a link to take it back",
  );

/**
 * A link that came to `email` and lets its reader take the address from the unverified account
 * holding it: a reclaim link, or that account's own verification link (its email's "this was not
 * me"). The address's claim is read with it: held by another account since, the link is void;
 * verified since, it cannot be taken (EMAIL_TAKEN); held by nobody, there is no one to tell.
 */
async function reclaimFor(reclaimToken: string, email: string) {
  const link = await emailLink(reclaimToken, ["reclaim", "verify"], email);
  if (link.token.email !== email) throw linkInvalid();
  const { claim } = link;
  if (claim && claim.userId !== link.token.userId) throw linkInvalid();
  if (claim?.verifiedAt) throw emailTaken();
  return {
    tokenHash: link.tokenHash,
    token: link.token,
    ...(claim ? { holder: { userId: claim.userId, orgId: claim.orgId } } : {}),
  };
}

/** `POST /auth/verify-email/resend`: a new verification link to the member's own address. */
export async function resendVerification(principal: SessionPrincipal): Promise<{ email: string; sent: boolean }> {
  if (principal.emailVerified) throw new AppError("EMAIL_ALREADY_VERIFIED", "This address is verified already");
  // Only to the address the account holds now: never to one its owner took back.
  if (principal.emailLost || (await getEmailClaim(principal.email))?.userId !== principal.userId) throw emailReclaimed();
  await throttleEmailLinks("verify-email", principal.email);
  const named = { accountName: principal.name, organizationName: principal.organizationName };
  const link = newEmailLink("verify", principal, nowIso(), named);
  await putEmailToken(link.tokenHash, link.item);
  return { email: principal.email, sent: await sendAccountEmail("verify", principal.email, link.token, named) };
}

export const emailReclaimed = () =>
  new AppError(
    "EMAIL_RECLAIMED",
    "The owner of this account's address took it back; change the account's address (POST /api/v1/auth/change-email)",
  );

/**
 * The account the address and password open: the address's holder, or else the unverified
 * account its owner took it from (`formerHolder`), while that account still names the address
 * and has lost it. The lost account can then sign in to move to an address of its own; without
 * this it would be stranded with its organization (docs/accounts.md). Only a claim with a former
 * holder costs the second password check, after the holder's failed.
 */
async function accountFor(claim: EmailClaim, email: string, password: string) {
  for (const holder of [claim, ...(claim.formerHolder ? [claim.formerHolder] : [])]) {
    const { member, organization: org } = await getMemberWithOrganization(holder.orgId, holder.userId);
    const current = holder === claim || (member?.email === email && member.emailLostAt !== undefined);
    if (member && org && current && (await verifyPassword(password, member.passwordHash))) return { member, org };
  }
  throw invalidCredentials();
}

const invalidCredentials = () => {
  metrics.loginRefused("failed");
  return new AppError("INVALID_CREDENTIALS", "The email or password is wrong");
};

/**
 * Login throttling that holds under any concurrency: each attempt is counted before its password
 * is checked, by atomic increments that answer the new count (one round trip, beside the read of
 * the email claim). An attempt over either limit is refused without checking the password; it and
 * a correct password take their attempt back off both counters, so the counters count failures
 * (and attempts in flight). 40 concurrent wrong passwords for one address: 10 are judged, 30 get 429.
 */
export async function login(input: { email: string; password: string; sourceIp: string }): Promise<AuthResult> {
  const email = input.email.toLowerCase();
  const { windowSeconds, perEmail, perIp } = LOGIN_THROTTLE;
  const now = Date.now();
  const [claim, byEmail, byIp] = await Promise.all([
    getEmailClaim(email),
    incrementCounter("login-email", email, windowSeconds, now),
    incrementCounter("login-ip", input.sourceIp, windowSeconds, now),
  ]);
  const settle = () =>
    Promise.all([
      incrementCounter("login-email", email, windowSeconds, now, -1),
      incrementCounter("login-ip", input.sourceIp, windowSeconds, now, -1),
    ]);
  if (byEmail.count > perEmail || byIp.count > perIp) {
    // A refused attempt is not judged, so it is no failure: it takes its count back.
    await settle();
    metrics.loginRefused("throttled");
    const retryAfter = Math.max(1, Math.min(byEmail.resetAt, byIp.resetAt) - Math.floor(now / 1000));
    throw new AppError("RATE_LIMITED", "Too many failed logins; try again later", undefined, {
      "retry-after": String(retryAfter),
    });
  }

  if (!claim) {
    await verifyPassword(input.password, await decoyHash(loadConfig().PASSWORD_HASH_COST));
    throw invalidCredentials();
  }
  const { member, org } = await accountFor(claim, email, input.password);
  const { token, tokenHash, session } = newSession(member);
  // A reset or change that committed since the member was read voids the password just checked.
  const [stored] = await Promise.all([putSessionIfCurrent(tokenHash, session), settle()]);
  if (stored === "STALE") throw invalidCredentials();
  return authResult(token, session.expiresAt, member, org);
}

export const logout = (principal: SessionPrincipal) => deleteSession(principal.tokenHash);

export function me(principal: SessionPrincipal) {
  return {
    user: {
      id: principal.userId,
      email: principal.email,
      emailVerified: principal.emailVerified,
      name: principal.name,
      emailLost: principal.emailLost,
    },
    organization: { id: principal.orgId, name: principal.organizationName, plan: principal.plan },
    role: principal.role,
    permissions: [...principal.permissions],
    platformAdmin: principal.platformAdmin,
  };
}

export async function createInvite(principal: SessionPrincipal, sourceIp: string, email: string, role: Exclude<Role, "owner">) {
  const token = newToken("invite");
  const createdAt = nowIso();
  const expiresAt = new Date(Date.now() + loadConfig().INVITE_TTL_HOURS * 3600_000).toISOString();
  await putInvite(
    sha256Hex(token),
    {
      orgId: principal.orgId,
      email: email.toLowerCase(),
      role,
      invitedBy: principal.userId,
      createdAt,
      expiresAt,
    },
    audited(
      principal,
      sourceIp,
      "member.invited",
      { type: "invite", id: email.toLowerCase() },
      { email: email.toLowerCase(), role },
    ),
  );
  // The dashboard's sign-up that accepts it; the token in the fragment, which browsers never send.
  const inviteUrl = `${loadConfig().BASE_URL}/invite#token=${token}`;
  return { inviteToken: token, inviteUrl, email: email.toLowerCase(), role, expiresAt };
}

/** A member as the audit log names them (the entry keeps the name and address after they leave). */
const memberTarget = (m: Member) => ({ type: "member", id: m.userId, name: m.name });

const memberView = (m: Member) => ({ id: m.userId, email: m.email, name: m.name, role: m.role, createdAt: m.createdAt });

export async function listMembers(orgId: string, limit: number, cursor?: string) {
  const page = await pageOfMembers(orgId, limit, cursor);
  return { members: page.items.map(memberView), nextCursor: page.nextCursor };
}

/**
 * A member's role change or removal reaches their API keys in the same transaction: each key
 * carries its creator's current role (null once they left), which API-key authentication
 * intersects with the key's own permissions (docs/api.md, "API keys"). The keys are listed
 * from GSI1 beside the member read; settleCreatorRole catches a key the index did not show yet.
 */
async function withCreatorKeys(
  orgId: string,
  userId: string,
  role: Role | null,
  write: (
    member: Member,
    alongside: ReturnType<typeof creatorRoleUpdates>,
  ) => Promise<Outcome<"OK" | "OWNER" | "NOT_FOUND" | "CONFLICT">>,
): Promise<Member> {
  for (let attempt = 1; ; attempt++) {
    const [member, created] = await Promise.all([getMember(orgId, userId), keysCreatedBy(orgId, userId)]);
    if (!member) throw new AppError("NOT_FOUND", "Member not found");
    if (member.role === "owner") throw new AppError("CANNOT_CHANGE_OWNER", "The owner's role cannot be changed or removed");
    const outcome = await write(
      member,
      creatorRoleUpdates(
        created.map((key) => key.id),
        role,
      ),
    );
    if (outcome === "NOT_FOUND") throw new AppError("NOT_FOUND", "Member not found");
    if (outcome === "OWNER") throw new AppError("CANNOT_CHANGE_OWNER", "The owner's role cannot be changed or removed");
    if (outcome === "OK") {
      const expected = (await getOrganization(orgId))?.apiKeyCount ?? 0;
      if (expected > created.length) await settleCreatorRole(orgId, userId, role, new Set(created.map((k) => k.id)), expected);
      return member;
    }
    // A listed key was deleted meanwhile: list again.
    if (attempt >= 3) throw new AppError("CONFLICT", "The organization changed; retry");
  }
}

export async function changeRole(principal: SessionPrincipal, sourceIp: string, userId: string, role: Exclude<Role, "owner">) {
  const member = await withCreatorKeys(principal.orgId, userId, role, (m, alongside) =>
    updateMemberRole(
      m.orgId,
      m.userId,
      role,
      alongside,
      // A role set to what it was changes nothing worth an entry.
      m.role === role
        ? undefined
        : audited(principal, sourceIp, "member.role_changed", memberTarget(m), { from: m.role, to: role }),
    ),
  );
  return { member: memberView({ ...member, role }) };
}

export async function removeTeamMember(principal: SessionPrincipal, sourceIp: string, userId: string) {
  if (userId === principal.userId) {
    throw new AppError("CONFLICT", "You cannot remove yourself; ask another admin or the owner");
  }
  await withCreatorKeys(principal.orgId, userId, null, async (member, alongside) => {
    const entry = audited(principal, sourceIp, "member.removed", memberTarget(member), {
      email: member.email,
      role: member.role,
    });
    return removeMember(member, alongside, (await getEmailClaim(member.email))?.userId === member.userId, entry);
  });
  return { message: "Member removed" };
}
