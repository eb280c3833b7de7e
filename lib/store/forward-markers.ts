import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import type { StoredSubmission } from "./submissions";

/**
 * Forward-only forms in the table (docs/privacy.md, "Forward-only forms"; docs/data-model.md,
 * "Forward marker"): the marker of a submission whose values are still kept, and the strip that
 * deletes them. What decides when to strip is lib/outbound/forward-only.ts.
 */

export interface ForwardMarker {
  submissionId: string;
  formId: string;
  orgId: string;
  /** Set by the consumer once the submission's emails are final (sent, or not applicable). */
  emailsDone: boolean;
  /** Epoch seconds: DynamoDB's TTL (or the local sweeper) deletes the marker then; its REMOVE strips the submission. */
  ttl: number;
  createdAt: string;
}

/**
 * Puts the marker unless it exists (a redelivered message keeps the first one and its bound).
 * True when it was put now.
 */
export async function putForwardMarker(marker: Omit<ForwardMarker, "emailsDone">): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.forwardMarker(marker.submissionId), type: "forward_marker", ...marker, emailsDone: false },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Strongly consistent: the check that strips decides on what the marker holds now. */
export async function getForwardMarker(submissionId: string): Promise<ForwardMarker | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.forwardMarker(submissionId), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  const { submissionId: id, formId, orgId, emailsDone, ttl, createdAt } = out.Item;
  return { submissionId: id, formId, orgId, emailsDone: emailsDone === true, ttl, createdAt } as ForwardMarker;
}

/** Records that the submission's emails are final; false when the marker is gone (stripped, or its bound passed). */
export async function markEmailsDone(submissionId: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.forwardMarker(submissionId),
        UpdateExpression: "SET emailsDone = :true",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":true": true },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Deletes the marker (deleting an absent one succeeds). */
export async function deleteForwardMarker(submissionId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.forwardMarker(submissionId) }));
}

/**
 * The parts of a submission's metadata that describe the person who sent it (docs/privacy.md,
 * "Forward-only forms"): set to null where the API always shows the key, removed where it is
 * optional. `source`, `droppedFiles`, `ignoredFields` and `isTest` describe the form, and stay.
 */
const NULLED_METADATA = ["ip", "userAgent", "referer"] as const;
const REMOVED_METADATA = ["replyTo", "subject", "fromName", "ads"] as const;

/**
 * Whether the submission's bound (`valuesKeptUntil`) has passed while it still holds its values:
 * the strip is due, and may come late (the marker's TTL is DynamoDB's, applied within days).
 */
export const valuesPastBound = (s: Pick<StoredSubmission, "valuesKeptUntil" | "valuesDeletedAt">, nowMs: number) =>
  s.valuesDeletedAt === undefined && s.valuesKeptUntil !== undefined && Date.parse(s.valuesKeptUntil) <= nowMs;

/**
 * The submission as readers see it: past its bound, as the strip leaves it (no values, the
 * person's metadata gone, `valuesDeletedAt` its bound), whether or not the strip has run yet.
 */
export function boundedValues(s: StoredSubmission, nowMs = Date.now()): StoredSubmission {
  if (!valuesPastBound(s, nowMs)) return s;
  const metadata = { ...s.metadata };
  for (const field of NULLED_METADATA) metadata[field] = null;
  for (const field of REMOVED_METADATA) delete metadata[field];
  return { ...s, data: Object.create(null), metadata, valuesDeletedAt: s.valuesKeptUntil };
}

/** The top-level attributes a strip names (the bookkeeper's grant: infra/table-grants.ts). */
export const STRIPPED_ATTRIBUTES = ["data", "metadata", "valuesDeletedAt", "valuesDeleted"] as const;

/**
 * Deletes a submission's values in one UpdateItem: its `data` and the personal parts of its
 * metadata, and sets `valuesDeletedAt` (with `valuesDeleted: true`, the top-level flag the
 * bookkeeper's stream filter matches: infra/bookkeeper-filter.ts). Only while it exists and still
 * holds its data: "NOT_FOUND" when it is gone or was stripped before, so a repeat writes nothing
 * (and puts no record on the stream).
 */
export async function stripSubmission(submissionId: string, now: string): Promise<Outcome<"OK" | "NOT_FOUND">> {
  const names: Record<string, string> = { "#data": "data", "#metadata": "metadata" };
  const values: Record<string, unknown> = { ":now": now, ":true": true, ":null": null };
  const sets = ["valuesDeletedAt = :now", "valuesDeleted = :true"];
  for (const field of NULLED_METADATA) {
    names[`#${field}`] = field;
    sets.push(`#metadata.#${field} = :null`);
  }
  const removes = ["#data"];
  for (const field of REMOVED_METADATA) {
    names[`#${field}`] = field;
    removes.push(`#metadata.#${field}`);
  }
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.submission(submissionId),
        UpdateExpression: `SET ${sets.join(", ")} REMOVE ${removes.join(", ")}`,
        ConditionExpression: "attribute_exists(pk) AND attribute_exists(#data)",
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return "OK";
  } catch (error) {
    if (isConditionFailure(error)) return "NOT_FOUND";
    throw error;
  }
}
