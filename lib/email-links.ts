import { newToken, tokenKind } from "./auth/tokens";
import { loadConfig } from "./config";
import { AppError } from "./errors";
import { sha256Hex } from "./ids";
import { incrementCounter } from "./store/counters";
import { type EmailToken, getEmailLink } from "./store/email-links";
import type { Invite } from "./store/invites";
import { getMemberWithOrganization } from "./store/members";

/**
 * The single-use links emailed to an address (docs/accounts.md): making one, and reading one by
 * its token, checked for purpose and expiry. This module sends nothing, so the routes that only
 * read a link (the description of a link) carry no email code.
 */

/**
 * A new emailed link: the token (for the email only) and its item (stored under the token's hash).
 * `about`: what else the item records (the names the email gives, a change's previous address).
 */
export function newEmailLink(
  purpose: EmailToken["purpose"],
  holder: { userId: string; orgId: string; email: string },
  now: string,
  about: Partial<Pick<EmailToken, "accountName" | "organizationName" | "previousEmail" | "invite">> = {},
) {
  const token = newToken("emailLink");
  const expiresAt = new Date(Date.parse(now) + loadConfig().EMAIL_LINK_TTL_HOURS * 3600_000).toISOString();
  return {
    token,
    tokenHash: sha256Hex(token),
    item: {
      purpose,
      email: holder.email,
      userId: holder.userId,
      orgId: holder.orgId,
      ...about,
      createdAt: now,
      expiresAt,
    } satisfies EmailToken,
  };
}

export const linkInvalid = () => new AppError("EMAIL_LINK_INVALID", "The link is unknown or was used already");
export const linkExpired = () => new AppError("EMAIL_LINK_EXPIRED", "The link has expired; ask for a new one");

type Purpose = EmailToken["purpose"];

/**
 * Reads an emailed link's item by its token, checked to be of `purpose` (one of them) and
 * unexpired; with `claimOf`, that address's claim is read in the same round trip.
 */
export async function emailLink(token: string, purpose: Purpose | readonly Purpose[], claimOf?: string) {
  if (tokenKind(token) !== "emailLink") throw linkInvalid();
  const tokenHash = sha256Hex(token);
  const { link, claim } = await getEmailLink(tokenHash, claimOf);
  const purposes: readonly Purpose[] = typeof purpose === "string" ? [purpose] : purpose;
  if (!link || !purposes.includes(link.purpose)) throw linkInvalid();
  if (Date.parse(link.expiresAt) <= Date.now()) throw linkExpired();
  return { tokenHash, token: link, claim };
}

/** An invite that admits `email`: it exists, is unexpired and was made for that address (else 410 INVITE_INVALID). */
export function checkedInvite(invite: Invite | undefined, email: string): Invite {
  if (!invite || Date.parse(invite.expiresAt) <= Date.now() || invite.email !== email) {
    throw new AppError("INVITE_INVALID", "The invite is unknown, used, expired or for another email");
  }
  return invite;
}

/** Links each address may be sent per hour (verification resends, reclaim requests, address changes). */
export const EMAIL_LINK_THROTTLE = { windowSeconds: 3600, perAddress: 5 } as const;

export async function throttleEmailLinks(scope: string, email: string): Promise<void> {
  const { count, resetAt } = await incrementCounter(scope, email, EMAIL_LINK_THROTTLE.windowSeconds);
  if (count > EMAIL_LINK_THROTTLE.perAddress) {
    throw new AppError("RATE_LIMITED", "Too many emails to this address; try again later", undefined, {
      "retry-after": String(Math.max(1, resetAt - Math.floor(Date.now() / 1000))),
    });
  }
}

export interface EmailLinkDescription {
  purpose: Purpose;
  email: string;
  expiresAt: string;
  /** `verify`, `change`: the account the link would confirm the address for. */
  account?: { name: string };
  organization?: { name: string };
  /** `reclaim` asked from an invite: the organization a signup with it joins, and the role. */
  invite?: { organization: { name: string }; role: EmailLinkInviteRole };
}

type EmailLinkInviteRole = NonNullable<EmailToken["invite"]>["role"];

/**
 * `POST /auth/email-links/describe`: what a link is for, without using it, so the pages it opens
 * can say so before anyone confirms anything. It tells no more than the email carrying the link
 * already did: the address, the account's and organization's names (verification and change
 * links), the inviting organization (a reclaim asked from an invite), and the expiry. Nothing is
 * written: a link scanner or a prefetch that calls it changes nothing.
 */
export async function describeEmailLink(token: string): Promise<EmailLinkDescription> {
  const { token: link } = await emailLink(token, ["verify", "change", "reclaim"]);
  const described: EmailLinkDescription = { purpose: link.purpose, email: link.email, expiresAt: link.expiresAt };
  if (link.invite) described.invite = { organization: { name: link.invite.organizationName }, role: link.invite.role };
  if (link.purpose === "reclaim") return described;
  let { accountName, organizationName } = link;
  if (accountName === undefined || organizationName === undefined) {
    // A link issued before links carried the names: the account's and organization's as they are.
    const { member, organization } = await getMemberWithOrganization(link.orgId, link.userId);
    accountName ??= member?.name;
    organizationName ??= organization?.name;
  }
  if (accountName !== undefined) described.account = { name: accountName };
  if (organizationName !== undefined) described.organization = { name: organizationName };
  return described;
}
