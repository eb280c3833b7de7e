import { emailTaken, sendAccountEmail, sendLogged } from "./accounts";
import { verifyPassword } from "./auth/passwords";
import type { SessionPrincipal } from "./auth/principal";
import { emailLink, linkInvalid, newEmailLink, throttleEmailLinks } from "./email-links";
import { AppError } from "./errors";
import { nowIso } from "./ids";
import { addressChangedEmail } from "./notifications/account-email";
import { changeAddress } from "./store/account-address";
import { getEmailClaim, getMemberWithEmailClaim } from "./store/email-claims";
import { putEmailToken, useVerificationToken } from "./store/email-links";

/**
 * The account's address: confirming it from a link, and moving to another one (docs/accounts.md,
 * "Who confirms an address" and "Changing the address").
 */

const otherAccount = () =>
  new AppError(
    "EMAIL_LINK_OTHER_ACCOUNT",
    'This link is for another account: sign in as that account to confirm it. If you did not create that account, take the address back instead (the email\'s "this was not me" link)',
  );

/**
 * `POST /auth/verify-email`: confirms the address a verification or change link was sent to, for
 * the signed-in account the link was issued for, and for no other: following a link proves only
 * that someone reads the address's mail, and the session proves that this someone is the
 * account's holder. So a stranger who receives the link of an account created with their address
 * cannot confirm it for that account (nor make it platform admin); they take the address back.
 */
export async function confirmEmailLink(
  principal: SessionPrincipal,
  token: string,
): Promise<{ email: string; emailVerified: true }> {
  const link = await emailLink(token, ["verify", "change"], principal.email);
  const item = link.token;
  if (item.userId !== principal.userId || item.orgId !== principal.orgId) throw otherAccount();
  const now = nowIso();
  if (item.purpose === "verify") {
    // Used meanwhile, or the address was reclaimed or the member removed since the link was sent.
    if ((await useVerificationToken(link.tokenHash, item, now)) === "LINK_INVALID") throw linkInvalid();
    return { email: item.email, emailVerified: true };
  }

  // A change: the account must still have the address it asked from (not changed again since).
  const { previousEmail } = item;
  if (previousEmail === undefined || previousEmail !== principal.email) throw linkInvalid();
  const oldClaim = link.claim;
  const newClaim = await getEmailClaim(item.email);
  if (newClaim?.verifiedAt) throw emailTaken();
  if (newClaim?.userId === principal.userId) throw linkInvalid();
  const releaseOld = oldClaim?.userId === principal.userId;
  const outcome = await changeAddress({
    tokenHash: link.tokenHash,
    link: { ...item, previousEmail },
    holder: newClaim ? { userId: newClaim.userId, orgId: newClaim.orgId } : undefined,
    releaseOld,
    now,
  });
  if (outcome === "EMAIL_TAKEN") throw emailTaken();
  if (outcome === "LINK_INVALID") throw linkInvalid();
  // The old address is told, when the account still held it (a reclaimed one is another's now).
  // The notice names the account as the verification email did, and not the new address.
  if (releaseOld) {
    const about = { accountName: principal.name, organizationName: principal.organizationName };
    await sendLogged("address-changed", addressChangedEmail(previousEmail, about, now));
  }
  return { email: item.email, emailVerified: true };
}

/**
 * `POST /auth/change-email`: sends a link to the new address; the account moves to it when that
 * link is confirmed from one of its sessions, and not before (its address stays as it is
 * meanwhile). The account's password is asked for, so that a session left open on a shared
 * computer cannot move the account to someone else's address. An address held by another account
 * can be moved to only while that account never verified it (the link proves it, as a reclaim
 * does); the account that held it is told, as after a reclaim.
 */
export async function requestEmailChange(
  principal: SessionPrincipal,
  input: { email: string; password: string },
): Promise<{ email: string; sent: boolean }> {
  const email = input.email.toLowerCase();
  // Per account (it checks a password) and per recipient (it sends an email), 5 an hour each.
  await Promise.all([throttleEmailLinks("change-email-account", principal.userId), throttleEmailLinks("change-email", email)]);
  const { member, claim } = await getMemberWithEmailClaim(principal.orgId, principal.userId, email);
  if (!member || !(await verifyPassword(input.password, member.passwordHash))) {
    throw new AppError("CURRENT_PASSWORD_INVALID", "The password is not this account's", [
      { path: "password", message: "This is not your current password" },
    ]);
  }
  if (claim?.userId === principal.userId) throw new AppError("CONFLICT", "This is the account's address already");
  if (claim?.verifiedAt) throw emailTaken();
  const named = { accountName: member.name, organizationName: principal.organizationName };
  const link = newEmailLink("change", { ...principal, email }, nowIso(), { ...named, previousEmail: member.email });
  await putEmailToken(link.tokenHash, link.item);
  return { email, sent: await sendAccountEmail("change", email, link.token, named) };
}
