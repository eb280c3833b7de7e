import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { type Key, keys } from "./keys";
import { type Submission, submissionItem } from "./submissions";
import { type Named, transact } from "./transactions";

/**
 * Intake's repeat markers (docs/data-model.md, "Idempotency marker", "Lead marker") and the
 * submission's write with them: a repeated request (the same Idempotency-Key, the same
 * advertising lead id) answers the first one's result.
 */

/** What a repeated request (same Idempotency-Key, same lead id) answers: the first result. */
export interface IntakeResult {
  submissionId: string;
  referenceId: string;
  fieldsMapped: string[];
}

export interface Marker {
  key: Key;
  /** Epoch seconds; omitted: kept until the webhook's purge. */
  ttl?: number;
  /**
   * A digest of the request that set the marker (Idempotency-Key markers): a later request with
   * the same key and another digest is a reuse of the key, not a retry (422).
   */
  requestHash?: string;
}

/**
 * The marker of an Idempotency-Key (its SHA-256), kept until `ttl` (epoch seconds), with the
 * digest of the request that set it.
 */
export const idempotencyMarker = (webhookId: string, keyHash: string, ttl: number, requestHash: string): Marker => ({
  key: keys.idempotency(webhookId, keyHash),
  ttl,
  requestHash,
});

/** The marker of an advertising platform's lead id (its SHA-256), kept until `ttl` (epoch seconds). */
export const leadMarker = (webhookId: string, leadHash: string, ttl: number): Marker => ({
  key: keys.lead(webhookId, leadHash),
  ttl,
});

/** What a marker remembers: the first submission's result, and its request's digest when kept. */
export interface MarkerHit {
  result: IntakeResult;
  requestHash?: string;
}

/** A marker counts until the second its `ttl` names; from then on it is expired (reads and writes agree). */
const isExpired = (ttl: unknown, nowSeconds: number) => typeof ttl === "number" && ttl <= nowSeconds;

/** Reads a marker's stored result, ignoring one that expired but lingers (TTL deletes lazily). */
export async function readMarker(marker: Marker, nowSeconds = Math.floor(Date.now() / 1000)): Promise<MarkerHit | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: marker.key, ConsistentRead: true }));
  const item = out.Item;
  if (!item || isExpired(item.ttl, nowSeconds)) return undefined;
  return {
    result: item.result as IntakeResult,
    ...(typeof item.requestHash === "string" ? { requestHash: item.requestHash } : {}),
  };
}

/** Rounds of "a marker blocked the write but was gone when read" before the failure is raised. */
const MARKER_RACE_ATTEMPTS = 3;

/**
 * Stores a submission. With markers (Idempotency-Key, lead id) the submission and the markers
 * are written in one transaction, so a concurrent repeat either stores nothing or is the one
 * that stores; the loser gets the winner's result. A transaction cancelled only for a
 * TransactionConflict (a concurrent repeat writing the same marker at the same moment) is
 * retried with backoff by transactWithRetry: its conditions are re-checked, so the retry either
 * goes through or finds the marker the other request wrote. Without markers it is a single
 * conditional put (half the write cost of a transaction).
 */
export async function storeSubmission(
  submission: Submission,
  result: IntakeResult,
  markers: Marker[],
): Promise<{ stored: true } | { stored: false; first: MarkerHit; marker: Marker }> {
  const TableName = tableName();
  const Item = submissionItem(submission);
  if (markers.length === 0) {
    await db().send(new PutCommand({ TableName, Item, ConditionExpression: "attribute_not_exists(pk)" }));
    return { stored: true };
  }
  /** Each marker's item is named by its key, so a refusal says which marker blocked the write. */
  const nameOf = (marker: Marker) => `marker ${marker.key.pk}` as const;
  for (let attempt = 1; ; attempt++) {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const cancelled = await transact<"submission" | ReturnType<typeof nameOf>>([
      ["submission", { Put: { TableName, Item, ConditionExpression: "attribute_not_exists(pk)" } }],
      ...markers.map(
        (marker): Named<ReturnType<typeof nameOf>> => [
          nameOf(marker),
          {
            Put: {
              TableName,
              Item: {
                ...marker.key,
                type: "marker",
                result,
                ...(marker.ttl ? { ttl: marker.ttl } : {}),
                ...(marker.requestHash ? { requestHash: marker.requestHash } : {}),
              },
              // An expired marker that DynamoDB has not deleted yet may be overwritten.
              ConditionExpression: "attribute_not_exists(pk) OR #ttl <= :now",
              ExpressionAttributeNames: { "#ttl": "ttl" },
              ExpressionAttributeValues: { ":now": nowSeconds },
            },
          },
        ],
      ),
    ]);
    if (!cancelled) return { stored: true };
    for (const marker of markers) {
      if (!cancelled.refused(nameOf(marker))) continue;
      const first = await readMarker(marker, nowSeconds);
      if (first) return { stored: false, first, marker };
    }
    // The marker that blocked the write was gone when read (it expired meanwhile): write again.
    if (attempt >= MARKER_RACE_ATTEMPTS) throw cancelled.error;
  }
}
