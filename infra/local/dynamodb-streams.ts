import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as SdkStreamRecord,
} from "@aws-sdk/client-dynamodb-streams";

/**
 * The three DynamoDB Streams calls the local stream follower makes, through the SDK's Streams
 * client (a development dependency: no function bundles it). DynamoDB Local serves the Streams
 * API on its own port and does not check the signature of the credentials it is sent.
 *
 * The follower forwards each record as the JSON an EventBridge Pipe sends, so a record read
 * through the SDK is turned back into its wire form (`toWire`): the SDK parses
 * ApproximateCreationDateTime into a Date and binary attribute values into bytes, where the pipe
 * sends epoch seconds and base64.
 */

/** A shard as the follower uses it: DynamoDB always sends its id. */
export interface StreamShard {
  ShardId: string;
  ParentShardId?: string;
}

/** A stream record in its wire form, as GetRecords sends it and the pipe forwards it. */
export interface RawStreamRecord {
  eventID: string;
  eventName: string;
  dynamodb: { SequenceNumber: string; [field: string]: unknown };
  [field: string]: unknown;
}

export type ShardIteratorType = "TRIM_HORIZON" | "LATEST" | "AFTER_SEQUENCE_NUMBER" | "AT_SEQUENCE_NUMBER";

/** Bytes back to base64, dates back to epoch seconds, throughout a parsed record. */
function wireValue(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (value instanceof Date) return value.getTime() / 1000;
  if (Array.isArray(value)) return value.map(wireValue);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, wireValue(v)]),
    );
  }
  return value;
}

export const toWire = (record: SdkStreamRecord) => wireValue(record) as RawStreamRecord;

export class LocalStreamsClient {
  private readonly client: DynamoDBStreamsClient;

  constructor(endpoint: string, region: string, accessKeyId: string) {
    this.client = new DynamoDBStreamsClient({ endpoint, region, credentials: { accessKeyId, secretAccessKey: "local" } });
  }

  /** Every shard of the stream (DescribeStream pages through them with ExclusiveStartShardId). */
  async listShards(streamArn: string, signal?: AbortSignal): Promise<StreamShard[]> {
    const shards: StreamShard[] = [];
    let start: string | undefined;
    do {
      const out = await this.client.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ...(start ? { ExclusiveStartShardId: start } : {}) }),
        { abortSignal: signal },
      );
      for (const shard of out.StreamDescription?.Shards ?? []) {
        if (shard.ShardId)
          shards.push({ ShardId: shard.ShardId, ...(shard.ParentShardId ? { ParentShardId: shard.ParentShardId } : {}) });
      }
      start = out.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return shards;
  }

  async shardIterator(
    streamArn: string,
    shardId: string,
    type: ShardIteratorType,
    sequenceNumber?: string,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const out = await this.client.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: type,
        ...(sequenceNumber ? { SequenceNumber: sequenceNumber } : {}),
      }),
      { abortSignal: signal },
    );
    return out.ShardIterator;
  }

  /** Up to `limit` records (at most 1,000) in wire form; no NextShardIterator means the shard is closed and read. */
  async getRecords(
    iterator: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<{ Records: RawStreamRecord[]; NextShardIterator?: string }> {
    const out = await this.client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: limit }), { abortSignal: signal });
    return {
      Records: (out.Records ?? []).map(toWire),
      ...(out.NextShardIterator ? { NextShardIterator: out.NextShardIterator } : {}),
    };
  }
}
