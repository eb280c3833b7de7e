import { me } from "./accounts";
import { hashPassword, verifyPassword } from "./auth/passwords";
import type { SessionPrincipal } from "./auth/principal";
import { sessionEnded } from "./auth/sessions";
import { loadConfig } from "./config";
import { AppError } from "./errors";
import { passwordChangedEmail } from "./notifications/password-email";
import { sendQuietly } from "./password-reset";
import { incrementCounter } from "./store/counters";
import { advanceSessionEpoch } from "./store/credentials";
import { getMember, renameMember } from "./store/members";

/**
 * What a signed-in person does to their own account (docs/accounts.md): change the password
 * (the current one required), end every other session, change the display name.
 */

/**
 * Password changes judged per account in 15 minutes: the current password is asked for so that
 * a stolen session cannot take the account over, and that check must not become a way to guess it.
 */
export const PASSWORD_CHANGE_THROTTLE = { windowSeconds: 15 * 60, perAccount: 10 } as const;

const ended = () => {
  throw sessionEnded();
};

/** `PUT /auth/password`: the new password, and every session but this one ends. */
export async function changePassword(
  principal: SessionPrincipal,
  input: { currentPassword: string; newPassword: string },
): Promise<{ message: string }> {
  const { windowSeconds, perAccount } = PASSWORD_CHANGE_THROTTLE;
  const [current, attempts] = await Promise.all([
    getMember(principal.orgId, principal.userId),
    incrementCounter("password-change", principal.userId, windowSeconds),
  ]);
  if (attempts.count > perAccount) {
    throw new AppError("RATE_LIMITED", "Too many password changes; try again later", undefined, {
      "retry-after": String(Math.max(1, attempts.resetAt - Math.floor(Date.now() / 1000))),
    });
  }
  const member = current ?? ended();
  if (!(await verifyPassword(input.currentPassword, member.passwordHash))) {
    throw new AppError("CURRENT_PASSWORD_INVALID", "The current password is wrong", [
      { path: "currentPassword", message: "This is not your current password" },
    ]);
  }
  const passwordHash = await hashPassword(input.newPassword, loadConfig().PASSWORD_HASH_COST);
  await endOthers(principal, passwordHash);
  // Told only to an address the account still holds: a reclaimed one is its owner's, a stranger to this account.
  if (!member.emailLostAt) {
    await sendQuietly("password-changed", passwordChangedEmail(member.email, loadConfig().BASE_URL));
  }
  return { message: "Password changed; every other session is signed out" };
}

/** Moves the member's session epoch past every session but the principal's (and sets the password when given). */
async function endOthers(principal: SessionPrincipal, passwordHash?: string): Promise<void> {
  const outcome = await advanceSessionEpoch({
    orgId: principal.orgId,
    userId: principal.userId,
    seen: principal.sessionEpoch,
    keepSessionHash: principal.tokenHash,
    ...(passwordHash ? { passwordHash } : {}),
  });
  // This session was itself ended meanwhile (another session's change, a reset, a sign-out).
  if (outcome === "ENDED") ended();
}

/** `POST /auth/logout/others`: "sign out everywhere else". */
export async function endOtherSessions(principal: SessionPrincipal): Promise<{ message: string }> {
  await endOthers(principal);
  return { message: "Every other session is signed out" };
}

/** `PUT /auth/me`: the display name; answers what `GET /auth/me` now does. */
export async function renameSelf(principal: SessionPrincipal, name: string) {
  if ((await renameMember(principal.orgId, principal.userId, name)) === "NOT_FOUND") ended();
  return me({ ...principal, name });
}
