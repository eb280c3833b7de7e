/**
 * The three DynamoDB Streams calls the local stream follower needs, spoken directly to DynamoDB
 * Local (which serves the Streams API on its own port), instead of adding
 * @aws-sdk/client-dynamodb-streams for a development-only loop. A side benefit: records come
 * back as the raw JSON the service sends (ApproximateCreationDateTime stays epoch seconds), which
 * is what an EventBridge Pipe forwards.
 *
 * DynamoDB Local requires an Authorization header naming an access key but does not verify the
 * signature, so none is computed. Protocol: AWS JSON 1.0, target prefix DynamoDBStreams_20120810
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Operations_Amazon_DynamoDB_Streams.html).
 */

export interface StreamShard {
  ShardId: string;
  ParentShardId?: string;
  SequenceNumberRange?: { StartingSequenceNumber?: string; EndingSequenceNumber?: string };
}

/** A stream record as GetRecords returns it; the follower forwards it untouched. */
export interface RawStreamRecord {
  eventID: string;
  eventName: string;
  dynamodb: { SequenceNumber: string; [field: string]: unknown };
  [field: string]: unknown;
}

export type ShardIteratorType = "TRIM_HORIZON" | "LATEST" | "AFTER_SEQUENCE_NUMBER" | "AT_SEQUENCE_NUMBER";

/** An error answered by the Streams API, named like the SDK names it (e.g. ExpiredIteratorException). */
export class StreamsApiError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export class LocalStreamsClient {
  constructor(
    private readonly endpoint: string,
    private readonly region: string,
    private readonly accessKeyId: string,
  ) {}

  private async call<T>(operation: string, input: unknown, signal?: AbortSignal): Promise<T> {
    const day = new Date().toISOString().slice(0, 10).replaceAll("-", "");
    const response = await fetch(this.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/x-amz-json-1.0",
        "x-amz-target": `DynamoDBStreams_20120810.${operation}`,
        authorization: `AWS4-HMAC-SHA256 Credential=${this.accessKeyId}/${day}/${this.region}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
      },
      body: JSON.stringify(input),
      signal,
    });
    const text = await response.text();
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (!response.ok) {
      // "__type": "com.amazonaws.dynamodb.v20120810#ExpiredIteratorException"
      const type = String(body.__type ?? "UnknownError");
      const name = type.slice(type.lastIndexOf("#") + 1);
      throw new StreamsApiError(name, String(body.message ?? body.Message ?? text), response.status);
    }
    return body as T;
  }

  /** Every shard of the stream (DescribeStream pages through them with ExclusiveStartShardId). */
  async listShards(streamArn: string, signal?: AbortSignal): Promise<StreamShard[]> {
    const shards: StreamShard[] = [];
    let start: string | undefined;
    do {
      const out = await this.call<{ StreamDescription: { Shards?: StreamShard[]; LastEvaluatedShardId?: string } }>(
        "DescribeStream",
        { StreamArn: streamArn, ...(start ? { ExclusiveStartShardId: start } : {}) },
        signal,
      );
      shards.push(...(out.StreamDescription.Shards ?? []));
      start = out.StreamDescription.LastEvaluatedShardId;
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
    const out = await this.call<{ ShardIterator?: string }>(
      "GetShardIterator",
      {
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: type,
        ...(sequenceNumber ? { SequenceNumber: sequenceNumber } : {}),
      },
      signal,
    );
    return out.ShardIterator;
  }

  /** Up to `limit` records (at most 1,000); no NextShardIterator means the shard is closed and read. */
  async getRecords(
    iterator: string,
    limit: number,
    signal?: AbortSignal,
  ): Promise<{ Records: RawStreamRecord[]; NextShardIterator?: string }> {
    const out = await this.call<{ Records?: RawStreamRecord[]; NextShardIterator?: string }>(
      "GetRecords",
      { ShardIterator: iterator, Limit: limit },
      signal,
    );
    return { Records: out.Records ?? [], ...(out.NextShardIterator ? { NextShardIterator: out.NextShardIterator } : {}) };
  }
}
