import { createHash, randomUUID } from "node:crypto";
import { marshall } from "@aws-sdk/util-dynamodb";
import type { SQSEvent, SQSRecord } from "aws-lambda";
import { MESSAGE_KIND_ATTRIBUTE } from "../../../../lib/queue-message";

const STREAM_ARN =
  "arn:aws:dynamodb:us-east-1:111122223333:table/Inlet-DataStoreTable1E9F5574-ABC/stream/2026-01-01T00:00:00.000";
let sequence = 100;

/**
 * A DynamoDB stream record exactly as the EventBridge Pipe puts it in an SQS message body
 * (lib/pipeline/stream-record.ts documents the shape and its sources). The table's stream view
 * is NEW_AND_OLD_IMAGES: an INSERT carries the new image, a REMOVE the old one, a MODIFY both
 * (`before`, or the same item).
 */
export function streamRecord(
  eventName: "INSERT" | "MODIFY" | "REMOVE",
  item: Record<string, unknown>,
  before: Record<string, unknown> = item,
): Record<string, unknown> {
  const image = marshall(item, { removeUndefinedValues: true });
  const oldImage = marshall(before, { removeUndefinedValues: true });
  const keys = { pk: image.pk, sk: image.sk };
  sequence += 1;
  return {
    eventID: randomUUID().replaceAll("-", ""),
    eventName,
    eventVersion: "1.1",
    eventSource: "aws:dynamodb",
    awsRegion: "us-east-1",
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: keys,
      ...(eventName === "REMOVE" ? {} : { NewImage: image }),
      ...(eventName === "INSERT" ? {} : { OldImage: oldImage }),
      SequenceNumber: String(sequence).padStart(21, "0"),
      SizeBytes: JSON.stringify(image).length,
      StreamViewType: "NEW_AND_OLD_IMAGES",
    },
    eventSourceARN: STREAM_ARN,
  };
}

/** One record of a Lambda SQS event, as the event source mapping builds it. */
export function sqsRecord(body: string, messageId: string = randomUUID(), attributes: Record<string, string> = {}): SQSRecord {
  return {
    messageId,
    receiptHandle: `AQEB${randomUUID().replaceAll("-", "")}`,
    body,
    attributes: {
      ApproximateReceiveCount: "1",
      SentTimestamp: String(Date.now()),
      SenderId: "AIDAIENQZJOLO23YVJ4VO",
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(attributes).map(([name, value]) => [
        name,
        { stringValue: value, dataType: "String", stringListValues: [], binaryListValues: [] },
      ]),
    ),
    md5OfBody: createHash("md5").update(body).digest("hex"),
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:111122223333:Inlet-IntakeQueueIntake3F254B08-XYZ",
    awsRegion: "us-east-1",
  };
}

/** An internal message's record, marked with its kind as lib/outbound/messages.ts sends it. */
export const internalSqsRecord = (message: Record<string, unknown>): SQSRecord =>
  sqsRecord(JSON.stringify(message), randomUUID(), { [MESSAGE_KIND_ATTRIBUTE]: String(message.kind) });

export const sqsEvent = (records: SQSRecord[]): SQSEvent => ({ Records: records });
