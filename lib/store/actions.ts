import { randomUUID } from "node:crypto";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { keys } from "./keys";

/**
 * Idempotency claims of the side effects of processing a submission (conventions, item 12): one
 * item per (submission, action), `ACTION#<submissionId>#<action>` / `ACTION`.
 *
 *   absent ──claim──▶ started ──done──▶ done
 *                        │
 *                        └──release (the effect failed)──▶ absent
 *
 * A claim is a conditional put, so of two consumers handling the same submission (a redelivered
 * message, a submission both inserted and released) exactly one performs the effect. A claim
 * left `started` by a consumer that died (crash, timeout) is taken over once it is older than
 * `staleAfterMs`. Every claim carries a random `claimId`: marking done and releasing apply only
 * to one's own claim, never to one a later consumer took over.
 */
export interface ActionClaim {
  submissionId: string;
  action: string;
  claimId: string;
  startedAt: number;
}

export type ClaimOutcome =
  | { status: "claimed"; claim: ActionClaim }
  | { status: "done" }
  /** Another consumer claimed it less than `staleAfterMs` ago and may still be at it. */
  | { status: "busy"; startedAt: number };

/**
 * Claims outlive any message that can still ask for their action (the intake queue keeps
 * messages 4 days, its DLQ 14); TTL deletion is only housekeeping.
 */
export const CLAIM_TTL_SECONDS = 30 * 24 * 3600;

/** Rounds of "the claim blocking us was released before we could read it". */
const CLAIM_ATTEMPTS = 3;

export async function claimAction(
  submissionId: string,
  action: string,
  options: { staleAfterMs: number; now?: number },
): Promise<ClaimOutcome> {
  const key = keys.action(submissionId, action);
  for (let attempt = 1; ; attempt++) {
    const now = options.now ?? Date.now();
    const claim: ActionClaim = { submissionId, action, claimId: randomUUID(), startedAt: now };
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...key,
            type: "action",
            ...claim,
            status: "started",
            ttl: Math.floor(now / 1000) + CLAIM_TTL_SECONDS,
          },
          ConditionExpression: "attribute_not_exists(pk) OR (#status = :started AND startedAt <= :staleBefore)",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":started": "started", ":staleBefore": now - options.staleAfterMs },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      );
      return { status: "claimed", claim };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const raw = (error as { Item?: Record<string, AttributeValue> }).Item;
      const current = raw
        ? unmarshall(raw)
        : (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
      if (current?.status === "done") return { status: "done" };
      if (current?.status === "started") return { status: "busy", startedAt: Number(current.startedAt) };
      // Released between our put and our read: claim again.
      if (attempt >= CLAIM_ATTEMPTS) throw error;
    }
  }
}

/**
 * Marks one's own claim done, with the effect's `note` when it gave one. False when it was taken
 * over meanwhile (the effect may then run twice).
 */
export async function completeAction(claim: ActionClaim, now = Date.now(), note?: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.action(claim.submissionId, claim.action),
        UpdateExpression: `SET #status = :done, doneAt = :now${note ? ", note = :note" : ""}`,
        ConditionExpression: "claimId = :claimId",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":done": "done",
          ":now": now,
          ":claimId": claim.claimId,
          ...(note ? { ":note": note } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Gives one's own claim up after the effect failed, so the next delivery of the message tries again. */
export async function releaseAction(claim: ActionClaim): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.action(claim.submissionId, claim.action),
        ConditionExpression: "claimId = :claimId",
        ExpressionAttributeValues: { ":claimId": claim.claimId },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Where a side effect of a submission stands: not claimed yet (undefined), under way, or done with its note. */
export async function getActionState(
  submissionId: string,
  action: string,
): Promise<{ status: "started" | "done"; note: string | null; doneAt: number | null } | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.action(submissionId, action),
      ProjectionExpression: "#status, note, doneAt",
      ExpressionAttributeNames: { "#status": "status" },
    }),
  );
  if (!out.Item) return undefined;
  return {
    status: out.Item.status === "done" ? "done" : "started",
    note: typeof out.Item.note === "string" ? out.Item.note : null,
    doneAt: typeof out.Item.doneAt === "number" ? out.Item.doneAt : null,
  };
}

/** A claim as stored (tests and operators). */
export async function readAction(submissionId: string, action: string): Promise<Record<string, unknown> | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.action(submissionId, action), ConsistentRead: true }),
  );
  return out.Item;
}
