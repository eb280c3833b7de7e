import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { batchGet } from "./batch";
import { filteredPage } from "./filtered-query";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { Actor, Lead } from "./shapes";

/**
 * Outbound webhook deliveries in the table (docs/data-model.md, "Outbound delivery"); the
 * attempt protocol they serve is in lib/outbound/attempts.ts. Key strings come from lib/store/keys.ts only.
 */

export const DELIVERY_STATUSES = ["pending", "delivered", "retrying", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * `submission.created` for a submission; `submission.updated` for a change of its status, owner or
 * tags; `webhook.test` for a test event sent from the dashboard or API.
 */
export const DELIVERY_EVENT_TYPES = ["submission.created", "webhook.test", "submission.updated"] as const;
export type DeliveryEventType = (typeof DELIVERY_EVENT_TYPES)[number];

/** `manual`: an attempt a user asked for (POST .../retry); `automatic`: the schedule's. */
export const DELIVERY_TRIGGERS = ["automatic", "manual"] as const;

/** What one change entry changed (only the fields that changed; docs/data-model.md, "Timeline entry"). */
export interface SubmissionChanges {
  status?: { from: string; to: string };
  ownerId?: { from: string | null; to: string | null };
  tags?: { added: string[]; removed: string[] };
}

/** The change a `submission.updated` delivery carries: copied from its timeline entry, which never changes. */
export interface DeliveryChange {
  /** The entry's id (`chg_...`): the delivery id derives from it and the endpoint. */
  id: string;
  at: string;
  actor: Actor;
  changes: SubmissionChanges;
}

export interface DeliveryAttempt {
  /** 1-based, over the delivery's whole life (manual retries included). */
  number: number;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  attemptedAt: string;
  /** When the next attempt was scheduled after this one, or null (delivered, failed, disabled). */
  nextAttemptAt: string | null;
  /** `manual`: the attempt a user asked for (POST .../retry). */
  trigger: (typeof DELIVERY_TRIGGERS)[number];
}

export interface Delivery {
  /**
   * `dlv_` + 22 base62 characters derived from the submission (of a `submission.updated`
   * delivery: the change) and endpoint ids (deterministic).
   */
  id: string;
  endpointId: string;
  formId: string;
  orgId: string;
  /** The submission delivered; null for a test event (`webhook.test`). */
  submissionId: string | null;
  eventType: DeliveryEventType;
  /** Of a `submission.updated` delivery: the change it announces. */
  change?: DeliveryChange;
  /** The lead as the consumer computed it when the delivery was created. */
  lead: Lead | null;
  status: DeliveryStatus;
  /** Attempts claimed so far (the claim is a conditional update on this number). */
  attemptCount: number;
  /** The attempt after which a failure ends the delivery as `failed`. */
  finalAttempt: number;
  /** The most recent attempts, oldest first (at most MAX_LOGGED_ATTEMPTS). */
  attempts: DeliveryAttempt[];
  /** Older attempts no longer listed. */
  attemptsOmitted: number;
  nextAttemptAt: string | null;
  /** Why the delivery ended without a final HTTP attempt (endpoint deleted, submission deleted). */
  lastError: string | null;
  /** Token of the queue message that claimed attempt `attemptCount` (lib/outbound/attempts.ts). */
  claimToken: string | null;
  /** Epoch ms until which the claimed attempt counts as in flight; absent once recorded. */
  leaseUntil?: number;
  /** A manual retry pending: its attempt is logged as `manual`. */
  manual?: boolean;
  /** Of a forward-only form's submission: its end may be the last thing before the values are deleted (lib/outbound/forward-only.ts). */
  forwardOnly?: true;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const MAX_LOGGED_ATTEMPTS = 20;

/** Delivery logs are kept 30 days after their last change (DynamoDB TTL deletes them later). */
export const DELIVERY_RETENTION_SECONDS = 30 * 24 * 60 * 60;
const ttlFrom = (nowMs: number) => Math.floor(nowMs / 1000) + DELIVERY_RETENTION_SECONDS;

const toDelivery = (item: Record<string, unknown>) => fromItem<Delivery>(item, "ttl");

/** The table item of a delivery: its keys, its index keys under its endpoint, and its TTL. */
export const deliveryItem = (delivery: Delivery, nowMs: number) => ({
  ...keys.outboundDelivery(delivery.id),
  ...keys.outboundDeliveryIndex(delivery.endpointId, delivery.createdAt, delivery.id),
  type: "outbound_delivery",
  ttl: ttlFrom(nowMs),
  ...delivery,
});

/** Creates a delivery unless one with its (deterministic) id exists; true when created. */
export async function createDelivery(delivery: Delivery, nowMs = Date.now()): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: deliveryItem(delivery, nowMs),
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Strongly consistent: the attempt runner decides on what the item holds now. */
export async function getDelivery(deliveryId: string): Promise<Delivery | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.outboundDelivery(deliveryId), ConsistentRead: true }),
  );
  return out.Item ? toDelivery(out.Item) : undefined;
}

/**
 * Claims attempt `attempt` for the message `token`: succeeds only if no one claimed it yet
 * (attemptCount is still attempt - 1), the delivery is still to be attempted, and no attempt is
 * in flight. Returns the delivery as claimed; undefined when the claim lost.
 */
export async function claimAttempt(
  deliveryId: string,
  attempt: number,
  token: string,
  leaseUntil: number,
): Promise<Delivery | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.outboundDelivery(deliveryId),
        UpdateExpression: "SET attemptCount = :attempt, claimToken = :token, leaseUntil = :lease",
        ConditionExpression: "attemptCount = :previous AND #status IN (:pending, :retrying) AND attribute_not_exists(leaseUntil)",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":attempt": attempt,
          ":previous": attempt - 1,
          ":token": token,
          ":lease": leaseUntil,
          ":pending": "pending",
          ":retrying": "retrying",
        },
        ReturnValues: "ALL_NEW",
      }),
    );
    return out.Attributes ? toDelivery(out.Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

export interface AttemptRecord {
  attempts: DeliveryAttempt[];
  attemptsOmitted: number;
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  /** The message that will schedule what comes next (the recorder). */
  claimToken: string;
}

/**
 * Records the result of attempt `attempt` and ends its lease, only if that lease (its exact
 * `leaseUntil`) still holds the delivery: the runner that claimed it, or whoever found the lease
 * expired and records the attempt as interrupted. False when someone else recorded it first.
 */
export async function recordAttempt(
  deliveryId: string,
  attempt: number,
  leaseUntil: number,
  record: AttemptRecord,
  now: string,
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.outboundDelivery(deliveryId),
        UpdateExpression:
          "SET attempts = :attempts, attemptsOmitted = :omitted, #status = :status, nextAttemptAt = :next, deliveredAt = :deliveredAt, claimToken = :token, updatedAt = :now, #ttl = :ttl REMOVE leaseUntil, manual",
        ConditionExpression: "attemptCount = :attempt AND leaseUntil = :lease",
        ExpressionAttributeNames: { "#status": "status", "#ttl": "ttl" },
        ExpressionAttributeValues: {
          ":attempts": record.attempts,
          ":omitted": record.attemptsOmitted,
          ":status": record.status,
          ":next": record.nextAttemptAt,
          ":deliveredAt": record.deliveredAt,
          ":token": record.claimToken,
          ":now": now,
          ":ttl": ttlFrom(Date.parse(now)),
          ":attempt": attempt,
          ":lease": leaseUntil,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Ends a delivery as failed without an HTTP attempt (its endpoint or submission is gone), if
 * nothing changed it since it was read (`attemptCount`, no attempt in flight).
 */
export async function endDelivery(deliveryId: string, attemptCount: number, error: string, now: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.outboundDelivery(deliveryId),
        UpdateExpression: "SET #status = :failed, lastError = :error, nextAttemptAt = :null, updatedAt = :now REMOVE manual",
        ConditionExpression: "attemptCount = :count AND #status IN (:pending, :retrying) AND attribute_not_exists(leaseUntil)",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":failed": "failed",
          ":error": error,
          ":null": null,
          ":now": now,
          ":count": attemptCount,
          ":pending": "pending",
          ":retrying": "retrying",
        },
      }),
    );
  } catch (failure) {
    if (!isConditionFailure(failure)) throw failure;
  }
}

/**
 * Makes the next attempt due now (POST .../retry), if no attempt is in flight and nothing changed
 * since `seen` was read. A finished delivery (delivered or failed) reopens for exactly one more
 * attempt; one still retrying keeps its schedule after this attempt. False when it changed.
 */
export async function scheduleManualAttempt(seen: Delivery, now: string): Promise<boolean> {
  const reopen = seen.status === "delivered" || seen.status === "failed";
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.outboundDelivery(seen.id),
        UpdateExpression: `SET nextAttemptAt = :now, updatedAt = :now, manual = :true, lastError = :null${
          reopen ? ", #status = :pending, finalAttempt = :final" : ""
        }`,
        ConditionExpression: "attemptCount = :count AND #status = :seenStatus AND attribute_not_exists(leaseUntil)",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":now": now,
          ":true": true,
          ":null": null,
          ":count": seen.attemptCount,
          ":seenStatus": seen.status,
          ...(reopen ? { ":pending": "pending", ":final": seen.attemptCount + 1 } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * How many deliveries one page of a status-filtered list reads at most before it answers (maybe
 * with fewer items and a cursor): bounds the cost of a request over a long, mostly-delivered log.
 */
const MAX_EXAMINED_FILTERED = 1000;

/** One page of an endpoint's deliveries, newest first; only those in `status` when given. */
export const listEndpointDeliveries = (endpointId: string, limit: number, cursor?: string, status?: DeliveryStatus) =>
  filteredPage(
    {
      partition: keys.outboundDeliveryIndexPartition(endpointId),
      newestFirst: true,
      ...(status
        ? { filter: { expression: "#status = :status", names: { "#status": "status" }, values: { ":status": status } } }
        : {}),
      map: toDelivery,
    },
    { limit, ...(cursor ? { cursor } : {}), maxExamined: MAX_EXAMINED_FILTERED },
  );

/** Deliveries by id (at most 100: one BatchGetItem, ./batch.ts), in the order asked; absent ones are left out. */
export async function getDeliveries(deliveryIds: string[]): Promise<Delivery[]> {
  const items = await batchGet(deliveryIds.map((id) => keys.outboundDelivery(id)));
  return items.flatMap((item) => (item ? [toDelivery(item)] : []));
}

/** The endpoint's newest delivery, if any. */
export async function latestDelivery(endpointId: string): Promise<Delivery | undefined> {
  const page = await listEndpointDeliveries(endpointId, 1);
  return page.items[0];
}
