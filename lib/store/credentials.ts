import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { batchGet } from "./batch";
import { verifyClaimItem } from "./email-claims";
import { useLinkItem } from "./email-links";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import { type Session, sessionItem } from "./sessions";
import { transact } from "./transactions";

/**
 * A member's password and the generation of their sessions (docs/accounts.md, "Ending
 * sessions"). A session is valid only while its `epoch` equals the member's `sessionEpoch`
 * (lib/auth/sessions.ts reads the member on every request anyway): ending every other session is
 * one transaction that moves the member's epoch and carries the current session along, with no
 * index of sessions to query and nothing more to read per request.
 */

/** A password-reset link's item: an emailed link (`VERIFY#<hash>`, as verification and reclaim links) of purpose `reset`. */
export interface ResetLink {
  purpose: "reset";
  email: string;
  /**
   * The account holding the address when the reset was asked for. Absent when none did: the
   * item is then written all the same (the request does the same work either way) and its token
   * is never sent, so it can never be used.
   */
  userId?: string;
  orgId?: string;
  createdAt: string;
  expiresAt: string;
}

/** The member's sessionEpoch is still `seen` (an absent one counts as 0). */
function epochIs(seen: number) {
  return {
    expression: seen === 0 ? "(attribute_not_exists(sessionEpoch) OR sessionEpoch = :seen)" : "sessionEpoch = :seen",
    values: { ":seen": seen },
  };
}

export async function putResetLink(tokenHash: string, link: ResetLink): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.emailToken(tokenHash), type: "email-token", ...link, ttl: Math.floor(Date.parse(link.expiresAt) / 1000) },
    }),
  );
}

/** The reset link by its token's hash (BatchGetItem); undefined when there is none, or the link is for another purpose. */
export async function getResetLink(tokenHash: string): Promise<ResetLink | undefined> {
  const [item] = await batchGet([keys.emailToken(tokenHash)]);
  return item?.purpose === "reset" ? fromItem<ResetLink>(item, "ttl") : undefined;
}

/**
 * Stores a new session only while the member's epoch is still the one it was made for: a sign-in
 * that checked the password just before a reset or change committed gets no session.
 */
export async function putSessionIfCurrent(
  tokenHash: string,
  session: Session & { epoch: number },
): Promise<Outcome<"OK" | "STALE">> {
  const TableName = tableName();
  const current = epochIs(session.epoch);
  const cancelled = await transact([
    [
      "member",
      {
        ConditionCheck: {
          TableName,
          Key: keys.member(session.orgId, session.userId),
          ConditionExpression: `attribute_exists(pk) AND ${current.expression}`,
          ExpressionAttributeValues: current.values,
        },
      },
    ],
    ["session", { Put: { TableName, Item: sessionItem(tokenHash, session) } }],
  ]);
  return cancelled ? "STALE" : "OK";
}

/**
 * Ends every session of the member but `keep`, and sets `passwordHash` when given, in one
 * transaction: the member's epoch moves from `seen` to `seen + 1` and the kept session moves
 * with it. "ENDED" when the epoch had moved already or the kept session is gone (it was ended
 * meanwhile: it must not revive itself and end the others').
 */
export async function advanceSessionEpoch(input: {
  orgId: string;
  userId: string;
  seen: number;
  keepSessionHash: string;
  passwordHash?: string;
}): Promise<Outcome<"OK" | "ENDED">> {
  const TableName = tableName();
  const current = epochIs(input.seen);
  const next = input.seen + 1;
  const cancelled = await transact([
    [
      "member",
      {
        Update: {
          TableName,
          Key: keys.member(input.orgId, input.userId),
          UpdateExpression: `SET sessionEpoch = :next${input.passwordHash ? ", passwordHash = :hash" : ""}`,
          ConditionExpression: `attribute_exists(pk) AND ${current.expression}`,
          ExpressionAttributeValues: {
            ...current.values,
            ":next": next,
            ...(input.passwordHash ? { ":hash": input.passwordHash } : {}),
          },
        },
      },
    ],
    [
      "kept",
      {
        Update: {
          TableName,
          Key: keys.session(input.keepSessionHash),
          UpdateExpression: "SET epoch = :next",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":next": next },
        },
      },
    ],
  ]);
  return cancelled ? "ENDED" : "OK";
}

/**
 * Uses a reset link, in one transaction: the link is deleted (single use, before it expires), the
 * member gets the new password, a new session epoch (every session ends) and, if it had none, the
 * verification of the address it still has; so does the address's claim, while this account
 * holds it. "LINK_INVALID" when any of those no longer holds.
 */
export async function useResetLink(
  tokenHash: string,
  link: { email: string; userId: string; orgId: string },
  passwordHash: string,
  now: string,
): Promise<Outcome<"OK" | "LINK_INVALID">> {
  const TableName = tableName();
  const cancelled = await transact([
    ["link", useLinkItem(tokenHash, now, "reset")],
    [
      "member",
      {
        Update: {
          TableName,
          Key: keys.member(link.orgId, link.userId),
          UpdateExpression:
            "SET passwordHash = :hash, sessionEpoch = if_not_exists(sessionEpoch, :zero) + :one, emailVerifiedAt = if_not_exists(emailVerifiedAt, :now)",
          ConditionExpression: "attribute_exists(pk) AND email = :email",
          ExpressionAttributeValues: { ":hash": passwordHash, ":zero": 0, ":one": 1, ":now": now, ":email": link.email },
        },
      },
    ],
    ["claim", verifyClaimItem(link.email, link.userId, now)],
  ]);
  return cancelled ? "LINK_INVALID" : "OK";
}
