import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";

/**
 * A batch of table stream records as the bookkeeper's jobs read it: parsed once, in the order
 * Lambda delivered them (a shard's order), each record's images as plain items (the shape the
 * document client returns). The event is Lambda's DynamoDB Streams event
 * (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html); the table's stream carries new
 * and old images (lib/store/table-definition.ts), so a REMOVE holds the item that was removed.
 */

export interface StreamChange {
  eventId: string;
  eventName: "INSERT" | "MODIFY" | "REMOVE";
  /** Ordered within the batch's shard (a decimal string). */
  sequenceNumber: string;
  /** The item after the change (INSERT, MODIFY). */
  newItem: Record<string, unknown> | undefined;
  /** The item before the change (MODIFY, REMOVE). */
  oldItem: Record<string, unknown> | undefined;
}

export interface StreamBatch {
  /**
   * The batch's first record's eventID: the same on every delivery of the batch, so each job
   * keys its checkpoint by it (lib/store/bookkeeping.ts).
   */
  id: string;
  changes: StreamChange[];
  /** Records that could not be read, with why (logged by the caller; no job sees them). */
  unreadable: { eventId: string | undefined; reason: string }[];
}

const EVENT_NAMES = new Set(["INSERT", "MODIFY", "REMOVE"]);

const image = (value: unknown) =>
  value && typeof value === "object" ? unmarshall(value as Record<string, AttributeValue>) : undefined;

/** One record, or why it cannot be read (a number beyond Number.MAX_SAFE_INTEGER, a missing field). */
function parse(record: DynamoDBRecord): StreamChange | string {
  const { eventID, eventName } = record;
  const sequenceNumber = record.dynamodb?.SequenceNumber;
  if (typeof eventID !== "string" || !eventID) return "no eventID";
  if (typeof eventName !== "string" || !EVENT_NAMES.has(eventName)) return `eventName ${String(eventName)}`;
  if (typeof sequenceNumber !== "string" || !/^\d+$/.test(sequenceNumber)) return "no sequence number";
  try {
    return {
      eventId: eventID,
      eventName: eventName as StreamChange["eventName"],
      sequenceNumber,
      newItem: image(record.dynamodb?.NewImage),
      oldItem: image(record.dynamodb?.OldImage),
    };
  } catch (error) {
    return `an image cannot be read: ${(error as Error).message}`;
  }
}

/** The batch of `records`; undefined when there is none. */
export function streamBatch(records: readonly DynamoDBRecord[]): StreamBatch | undefined {
  if (records.length === 0) return undefined;
  const first = records[0]?.eventID;
  // Lambda always sends one; without it no checkpoint could tell a replay of this batch.
  if (!first) throw new Error("the batch's first record has no eventID");
  const batch: StreamBatch = { id: first, changes: [], unreadable: [] };
  for (const record of records) {
    const parsed = parse(record);
    if (typeof parsed === "string") batch.unreadable.push({ eventId: record.eventID, reason: parsed });
    else batch.changes.push(parsed);
  }
  return batch;
}
