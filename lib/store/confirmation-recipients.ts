import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionFailedItem, db, isConditionFailure, tableName } from "../aws/dynamodb";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import { type Page, queryPage } from "./pagination";
import type { SuppressionReason } from "./shapes";
import { GSI1 } from "./table-definition";

/**
 * A form's confirmation emails per recipient (docs/data-model.md, "Confirmation recipient";
 * docs/email.md): one item per form and address, in the form's partition (a purge deletes them
 * with the form), keyed by the address's digest, never the address. It says when the form last
 * confirmed to the address (at most one confirmation per address, form and day) and, after SES
 * reported a hard bounce or a complaint, that the address is suppressed: then it names the
 * address (the form's page lists it, and lifting it needs it) and is in the form's suppressed
 * index.
 */

/** One confirmation per address and form in this window. */
export const CONFIRMATION_WINDOW_MS = 24 * 3600 * 1000;
/**
 * Kept past the window for the events of the last one (a bounce after SES's retries arrives
 * within hours): an event for an item gone is not recorded. A suppressed item has no TTL.
 */
const MARKER_TTL_SECONDS = 3 * 86_400;

export interface ConfirmationSuppression {
  reason: SuppressionReason;
  /** SES's words (the bounce's type and diagnostic, the complaint's feedback type). */
  detail: string | null;
  at: string;
}

export interface SuppressedConfirmationRecipient extends ConfirmationSuppression {
  recipientId: string;
  address: string;
}

export type ConfirmationClaim =
  | { status: "claimed" }
  /** SES reported this address bouncing or complaining on a confirmation of this form. */
  | { status: "suppressed" }
  /** Another submission's confirmation went to this address less than a day ago. */
  | { status: "recent"; lastSentAt: string };

/**
 * Takes the form's one confirmation of the day to the address for `submissionId`, with one
 * conditional put: refused while the address is suppressed, or while another submission's
 * confirmation is less than CONFIRMATION_WINDOW_MS old. The same submission may take it again (its
 * send failed and is retried), so a retry is never refused by its own first try.
 */
export async function claimConfirmation(
  formId: string,
  recipientId: string,
  submissionId: string,
  now: number,
): Promise<ConfirmationClaim> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.confirmationRecipient(formId, recipientId),
          type: "confirmation_recipient",
          submissionId,
          sentAt: new Date(now).toISOString(),
          until: now + CONFIRMATION_WINDOW_MS,
          ttl: Math.floor(now / 1000) + MARKER_TTL_SECONDS,
        },
        ConditionExpression:
          "attribute_not_exists(pk) OR (attribute_not_exists(suppressed) AND (#until <= :now OR submissionId = :submissionId))",
        ExpressionAttributeNames: { "#until": "until" },
        ExpressionAttributeValues: { ":now": now, ":submissionId": submissionId },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return { status: "claimed" };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const found = conditionFailedItem(error);
    if (found?.suppressed) return { status: "suppressed" };
    return { status: "recent", lastSentAt: String(found?.sentAt) };
  }
}

/**
 * Records that SES suppresses an address the form confirmed to: only on the item its
 * confirmation left (so never for a form purged since, whose partition is gone, nor for an
 * address the form never confirmed to), which from then on names the address, keeps no TTL and
 * is in the form's suppressed index. A second report keeps the first one's time and index entry.
 */
export async function recordConfirmationSuppressed(
  formId: string,
  recipientId: string,
  address: string,
  entry: ConfirmationSuppression,
): Promise<Outcome<"OK" | "NOT_FOUND">> {
  const index = keys.suppressedConfirmationIndex(formId, entry.at, recipientId);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.confirmationRecipient(formId, recipientId),
        UpdateExpression:
          "SET suppressed = if_not_exists(suppressed, :entry), address = :address, gsi1pk = if_not_exists(gsi1pk, :gsi1pk), gsi1sk = if_not_exists(gsi1sk, :gsi1sk) REMOVE #ttl",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#ttl": "ttl" },
        ExpressionAttributeValues: { ":entry": entry, ":address": address, ":gsi1pk": index.gsi1pk, ":gsi1sk": index.gsi1sk },
      }),
    );
    return "OK";
  } catch (error) {
    if (isConditionFailure(error)) return "NOT_FOUND";
    throw error;
  }
}

const toSuppressed = (item: Record<string, unknown>): SuppressedConfirmationRecipient => {
  const entry = item.suppressed as ConfirmationSuppression;
  const sk = String(item.sk);
  return {
    recipientId: sk.slice(sk.indexOf("#") + 1),
    address: String(item.address),
    reason: entry.reason,
    detail: entry.detail ?? null,
    at: entry.at,
  };
};

/** One suppressed confirmation recipient of the form, or undefined (never confirmed to, or not suppressed). */
export async function getSuppressedConfirmation(
  formId: string,
  recipientId: string,
): Promise<SuppressedConfirmationRecipient | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.confirmationRecipient(formId, recipientId), ConsistentRead: true }),
  );
  return out.Item?.suppressed ? toSuppressed(out.Item) : undefined;
}

/** The form's suppressed confirmation recipients, the most recently suppressed first, a page at a time. */
export const listSuppressedConfirmations = (
  formId: string,
  limit: number,
  cursor?: string,
): Promise<Page<SuppressedConfirmationRecipient>> =>
  queryPage({
    partition: keys.suppressedConfirmationIndexPartition(formId),
    index: GSI1,
    limit,
    newestFirst: true,
    ...(cursor ? { cursor } : {}),
    map: toSuppressed,
  });

/**
 * Lifts a confirmation recipient's suppression: the item forgets the address and leaves the
 * index, and is left to expire, so the address's next confirmation is allowed at once. "NOT_FOUND"
 * when it is not suppressed (any more).
 */
export async function liftConfirmationSuppression(
  formId: string,
  recipientId: string,
  now: number,
): Promise<Outcome<"OK" | "NOT_FOUND">> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.confirmationRecipient(formId, recipientId),
        UpdateExpression: "SET #ttl = :ttl, #until = :now REMOVE suppressed, address, gsi1pk, gsi1sk",
        ConditionExpression: "attribute_exists(suppressed)",
        ExpressionAttributeNames: { "#ttl": "ttl", "#until": "until" },
        ExpressionAttributeValues: { ":ttl": Math.floor(now / 1000) + MARKER_TTL_SECONDS, ":now": now },
      }),
    );
    return "OK";
  } catch (error) {
    if (isConditionFailure(error)) return "NOT_FOUND";
    throw error;
  }
}
