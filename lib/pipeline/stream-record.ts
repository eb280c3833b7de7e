import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import * as z from "../validation";

/**
 * The intake queue's message body, version 1: one DynamoDB stream record, exactly as an
 * EventBridge Pipe with a DynamoDB stream source and an SQS target (no input transformer) sends
 * it, one record per message. The local stream follower (infra/local/stream-follower.ts) sends
 * the same JSON: the record as GetRecords returns it, plus `eventSourceARN`, which the pipe adds.
 *
 *   {
 *     "eventID": "c4ca4238a0b923820dcc509a6f75849b",
 *     "eventName": "INSERT",                       // INSERT | MODIFY | REMOVE
 *     "eventVersion": "1.1",
 *     "eventSource": "aws:dynamodb",
 *     "awsRegion": "eu-west-1",                    // "ddblocal" from DynamoDB Local
 *     "dynamodb": {
 *       "ApproximateCreationDateTime": 1763767800, // epoch seconds, a JSON number
 *       "Keys": { "pk": { "S": "PURGE#frm_1" }, "sk": { "S": "PURGE" } },
 *       "NewImage": { "pk": { "S": "PURGE#frm_1" }, "type": { "S": "purge" }, ... },
 *       "SequenceNumber": "111",                   // a decimal string, ordered within a shard
 *       "SizeBytes": 26,
 *       "StreamViewType": "NEW_AND_OLD_IMAGES"     // the table's stream (a MODIFY also has OldImage)
 *     },
 *     "eventSourceARN": "arn:aws:dynamodb:eu-west-1:111122223333:table/T/stream/2025-01-01T00:00:00.000"
 *   }
 *
 * Sources: the pipe's sample DynamoDB event
 * (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-pipes-dynamodb.html), the stream
 * Record shape (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_Record.html),
 * and batching to SQS: each record of a source batch becomes one message
 * (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-pipes-batching-concurrency.html).
 *
 * The schema below checks only the fields the consumer relies on, so a field AWS adds or
 * reorders never turns a good message into poison. The body carries no version of its own (the
 * pipe sends the record as it is): a change of shape (an input transformer, an envelope) is a
 * version 2 that the parser tells apart by its shape, accepting both while old messages drain.
 */
const attributeMap = z.record(z.string(), z.record(z.string(), z.unknown()));

export const streamRecordSchema = z.object({
  eventID: z.string().check(z.minLength(1)),
  eventName: z.enum(["INSERT", "MODIFY", "REMOVE"]),
  eventSource: z.literal("aws:dynamodb"),
  dynamodb: z.object({
    ApproximateCreationDateTime: z.optional(z.number()),
    Keys: attributeMap,
    NewImage: z.optional(attributeMap),
    SequenceNumber: z.string().check(z.minLength(1)),
  }),
});

export type StreamRecord = z.output<typeof streamRecordSchema>;

export type ParsedStreamRecord =
  | { ok: true; record: StreamRecord; item: Record<string, unknown> | undefined }
  | { ok: false; reason: string };

/**
 * Parses a queue message body into the stream record and its new image as a plain item (the
 * same shape the document client returns). A body that is not a version-1 record is a value,
 * not an exception: it is that message's failure alone.
 */
export function parseStreamRecord(body: string): ParsedStreamRecord {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: "the body is not JSON" };
  }
  const result = streamRecordSchema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
    return { ok: false, reason: `the body is not a DynamoDB stream record (${issues.join("; ")})` };
  }
  const record = result.data;
  if (!record.dynamodb.NewImage) return { ok: true, record, item: undefined };
  try {
    // The schema checked the map's shape; unmarshall checks each value's type tag.
    const item = unmarshall(record.dynamodb.NewImage as unknown as Record<string, AttributeValue>);
    return { ok: true, record, item };
  } catch (error) {
    // e.g. a number beyond Number.MAX_SAFE_INTEGER, which unmarshall refuses to round.
    return { ok: false, reason: `NewImage cannot be read: ${(error as Error).message}` };
  }
}
