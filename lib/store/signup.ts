import { tableName } from "../aws/dynamodb";
import { claimAddress } from "./email-claims";
import { type EmailToken, emailTokenItem, useLinkItem } from "./email-links";
import { useInviteItem } from "./invites";
import { type Member, memberItem } from "./members";
import { type Organization, organizationItem } from "./organizations";
import type { Outcome } from "./outcomes";
import { type Session, sessionItem } from "./sessions";
import { type Named, transact } from "./transactions";

/**
 * Creates an account in one transaction: the email claim (unique), the member, the session,
 * and, for a new organization, the organization; for an invite, the invite is consumed.
 */
export async function createAccount(input: {
  member: Member;
  organization?: Organization;
  sessionHash: string;
  session: Session;
  inviteHash?: string;
  /** The verification link issued with the account. */
  verification?: { tokenHash: string; token: EmailToken };
  /**
   * A link that came to the address (a reclaim link, or the holder's own verification link): it
   * is consumed, and the address is taken from `holder`, the unverified account holding it when
   * it was read (undefined: nobody held it). The holder is marked as having lost it.
   */
  reclaim?: { tokenHash: string; token: EmailToken; holder?: { userId: string; orgId: string } };
  now: string;
}): Promise<Outcome<"OK" | "EMAIL_TAKEN" | "INVITE_INVALID" | "LINK_INVALID">> {
  const TableName = tableName();
  const { member, reclaim } = input;
  const items: Named<"claim" | "holder" | "account" | "invite" | "link">[] = [
    ...claimAddress(member, reclaim?.holder, input.now),
    ["account", { Put: { TableName, Item: memberItem(member) } }],
    ["account", { Put: { TableName, Item: sessionItem(input.sessionHash, input.session) } }],
  ];
  if (input.verification) {
    items.push(["account", { Put: { TableName, Item: emailTokenItem(input.verification.tokenHash, input.verification.token) } }]);
  }
  if (input.organization) items.push(["account", { Put: { TableName, Item: organizationItem(input.organization) } }]);
  if (reclaim) items.push(["link", useLinkItem(reclaim.tokenHash, input.now)]);
  if (input.inviteHash) items.push(["invite", useInviteItem(input.inviteHash, input.now)]);
  const cancelled = await transact(items);
  if (!cancelled) return "OK";
  if (cancelled.refused("claim")) return "EMAIL_TAKEN";
  if (cancelled.refused("invite")) return "INVITE_INVALID";
  // The link was used meanwhile, or the holder changed its address or left since it was read.
  if (cancelled.refused("link") || cancelled.refused("holder")) return "LINK_INVALID";
  throw cancelled.error;
}
