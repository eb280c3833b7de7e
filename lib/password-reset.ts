import { hashPassword } from "./auth/passwords";
import { newToken, tokenKind } from "./auth/tokens";
import { type EmailContent, sendEmail } from "./aws/ses";
import { loadConfig } from "./config";
import { AppError } from "./errors";
import { nowIso, sha256Hex } from "./ids";
import { describeError, log } from "./log";
import { noAccountEmail, resetEmail } from "./notifications/password-email";
import { incrementCounter } from "./store/counters";
import { getResetLink, putResetLink, type ResetLink, useResetLink } from "./store/credentials";
import { getEmailClaim } from "./store/email-claims";

/**
 * A forgotten password (docs/accounts.md, "A forgotten password"): a single-use, expiring link
 * to the address, an emailed link like verification and reclaim (`VERIFY#<hash>`, purpose
 * `reset`), whose use sets the new password, ends every session and verifies the address.
 */

/** Reset requests per address and per client IP in an hour (each answered alike, sent or not). */
export const RESET_THROTTLE = { windowSeconds: 3600, perAddress: 5, perIp: 20 } as const;

/** Sends one email; a failure is logged, never answered (the answer must not depend on it). */
export async function sendQuietly(kind: string, message: EmailContent): Promise<void> {
  try {
    await sendEmail({ ...message, kind });
  } catch (error) {
    log.warn("account email not sent", { kind, ...describeError(error) });
  }
}

/**
 * `POST /auth/password-reset`: the answer, and the work behind it, are the same whether or not an
 * account uses the address, so neither the body nor the time tells a stranger which addresses
 * have accounts. Either way: both counters and the address's claim are read in one round trip,
 * one link item is written (for an address without an account it has no holder, and its token
 * is never sent), and one email goes out (the link, or a note that no account uses the address).
 */
export async function requestPasswordReset(input: { email: string; sourceIp: string }): Promise<{ email: string }> {
  const email = input.email.toLowerCase();
  const { windowSeconds, perAddress, perIp } = RESET_THROTTLE;
  const now = Date.now();
  const [claim, byAddress, byIp] = await Promise.all([
    getEmailClaim(email),
    incrementCounter("password-reset", email, windowSeconds, now),
    incrementCounter("password-reset-ip", input.sourceIp, windowSeconds, now),
  ]);
  if (byAddress.count > perAddress || byIp.count > perIp) {
    // Both counters count the same clock-aligned hour, so they reset together.
    const retryAfter = Math.max(1, byAddress.resetAt - Math.floor(now / 1000));
    throw new AppError("RATE_LIMITED", "Too many password resets asked for; try again later", undefined, {
      "retry-after": String(retryAfter),
    });
  }
  const config = loadConfig();
  const token = newToken("emailLink");
  const createdAt = new Date(now).toISOString();
  const link: ResetLink = {
    purpose: "reset",
    email,
    ...(claim ? { userId: claim.userId, orgId: claim.orgId } : {}),
    createdAt,
    expiresAt: new Date(now + config.PASSWORD_RESET_TTL_MINUTES * 60_000).toISOString(),
  };
  await putResetLink(sha256Hex(token), link);
  await sendQuietly(
    "password-reset",
    claim
      ? resetEmail(email, token, {
          baseUrl: config.BASE_URL,
          ttlMinutes: config.PASSWORD_RESET_TTL_MINUTES,
          unverified: !claim.verifiedAt,
        })
      : noAccountEmail(email, config.BASE_URL),
  );
  return { email };
}

const linkInvalid = () => new AppError("EMAIL_LINK_INVALID", "The reset link is unknown or was used already; ask for a new one");

/**
 * `POST /auth/password-reset/confirm`: sets the new password with the link's token, once and
 * before it expires; every session of the account ends and the address counts as verified. The
 * link is void once the address changed hands (reclaimed) or its account was removed.
 */
export async function resetPassword(input: { token: string; password: string }): Promise<{ email: string }> {
  if (tokenKind(input.token) !== "emailLink") throw linkInvalid();
  const tokenHash = sha256Hex(input.token);
  const link = await getResetLink(tokenHash);
  if (!link?.userId || !link.orgId) throw linkInvalid();
  if (Date.parse(link.expiresAt) <= Date.now()) {
    throw new AppError("EMAIL_LINK_EXPIRED", "The reset link has expired; ask for a new one");
  }
  const passwordHash = await hashPassword(input.password, loadConfig().PASSWORD_HASH_COST);
  const holder = { email: link.email, userId: link.userId, orgId: link.orgId };
  if ((await useResetLink(tokenHash, holder, passwordHash, nowIso())) === "LINK_INVALID") throw linkInvalid();
  return { email: link.email };
}
