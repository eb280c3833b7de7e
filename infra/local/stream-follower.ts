import { DescribeTableCommand, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBStreamEvent } from "aws-lambda";
import { describeError, log } from "../../lib/log";
import { BOOKKEEPER_FILTER_PATTERNS } from "../bookkeeper-filter";
import { INTAKE_FILTER_PATTERNS } from "../intake-filter";
import { type FilterPattern, matchesAny } from "../stream-filter-match";
import { LocalStreamsClient, type RawStreamRecord } from "./dynamodb-streams";
import { StreamPosition } from "./stream-position";

/**
 * What the EventBridge Pipe does in AWS (infra/intake-pipeline.ts), on this machine: follows the
 * table's stream in DynamoDB Local, keeps the records the intake filters pass
 * (infra/intake-filter.ts, matched by infra/stream-filter-match.ts) and sends each one to the
 * intake queue as the pipe would: the record's JSON, plus `eventSourceARN`, one message each.
 *
 * Reading: DescribeTable gives the stream ARN; DescribeStream lists the shards (re-listed every
 * few seconds and whenever a shard closes, so new and child shards are picked up; a child waits
 * until its parent is read to the end, as the pipe keeps per-item order); each shard is read
 * with GetRecords from its shard iterator, and the loop sleeps briefly when nothing came.
 *
 * It also plays the bookkeeper's event source mapping (infra/bookkeeping.ts): a second reader of
 * the same shards, with its own iterators and its own place in each, as the mapping and the pipe
 * are two consumers of the stream in AWS: neither waits for the other. It hands the records the
 * bookkeeper's filters pass (infra/bookkeeper-filter.ts) to its handler in process, in the
 * shard's order, in batches of at most its batch size, in Lambda's DynamoDB Streams event shape
 * (`{ Records: [...] }`, each record as GetRecords returns it plus `eventSourceARN`). A batch that
 * fails is handed over again whole until it succeeds, and that reader's shard waits meanwhile, as
 * Lambda retries a stream batch; the queue's reader goes on.
 *
 * Durability (the SQS emulator is in memory): see infra/local/stream-position.ts. The queue's
 * position moves past a record only once its message was consumed or dead-lettered, and the
 * bookkeeper's past a batch only once the handler succeeded for it, so a kill -9 at any point
 * loses nothing: after a restart, every record not known to be finished is sent again, and a
 * batch the bookkeeper had not finished is handed over again exactly as it was.
 */

export interface StreamFollowerOptions {
  dynamodb: DynamoDBClient;
  /** DynamoDB Local's address (the Streams API is served on the same port). */
  dynamodbEndpoint: string;
  region: string;
  accessKeyId: string;
  tableName: string;
  sqs: SQSClient;
  queueUrl: string;
  /** Where the position persists (a file in the data folder). */
  positionFile: string;
  /** The pipe's filter list; the deployed one unless a test says otherwise. */
  filters?: readonly FilterPattern[];
  /** Sleep between polls when no shard returned records. */
  idleMs?: number;
  /** Stop reading while this many messages are unfinished (memory bound; the pipe has none locally). */
  maxInFlight?: number;
  /** The bookkeeper's handler and batch size (functions/routes.ts, BOOKKEEPER); none: no bookkeeping. */
  bookkeeper?: {
    handler: (event: DynamoDBStreamEvent) => Promise<unknown>;
    batchSize: number;
    /** Its event source's filters; the deployed ones unless a test says otherwise. */
    filters?: readonly FilterPattern[];
  };
}

export interface StreamFollowerStats {
  read: number;
  sent: number;
  /** Records the bookkeeper finished (a batch handed over again counts again). */
  bookkept: number;
  inFlight: number;
  /** Records finished since the position file was last written (it is written within ~100 ms). */
  unsaved: boolean;
}

export interface StreamFollower {
  /** The queue poller reports messages it deleted after success or left for the DLQ. */
  settle(messageIds: readonly string[]): void;
  stats(): StreamFollowerStats;
  /** Stops reading, then writes the position. Unfinished records are sent again next start. */
  stop(): Promise<void>;
}

interface Cursor {
  shardId: string;
  iterator?: string;
  /** Its reader's `prepare` ran (the bookkeeper's unfinished batch handed over again). */
  prepared?: boolean;
  /** The last record read by this process (or the position it resumed from). */
  lastRead?: string;
  readToEnd: boolean;
}

/**
 * The record's JSON, with characters beyond the Basic Multilingual Plane (emoji, some CJK) written
 * as JSON escapes (`\ud83d\udc4d`): the SQS emulator (fauxqs 1.9) checks a body per UTF-16 unit
 * and refuses every surrogate, which SQS itself accepts (#x10000 to #x10FFFF), so a submission
 * with an emoji would never reach the consumer locally. The parsed body is the same. Characters
 * SQS does refuse (U+FFFE, U+FFFF) are left as they are, so the local stack fails where AWS would.
 */
export const queueBody = (record: unknown) =>
  JSON.stringify(record).replace(/[\uD800-\uDFFF]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** SendMessageBatch's limits: 10 messages, and 1 MiB for the request's bodies together. */
const BATCH_MESSAGES = 10;
const BATCH_BYTES = 1_048_576;

/**
 * The records in order, cut into batches SQS accepts: at most 10, and at most 1 MiB of bodies
 * (a record alone larger than that goes alone, and the queue refuses it: SenderFault).
 */
export function sendableChunks<T extends { body: string }>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(item.body);
    if (current.length > 0 && (current.length === BATCH_MESSAGES || bytes + size > BATCH_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** GetRecords returns at most 1,000 records per call. */
const RECORDS_PER_CALL = 1000;
const RELIST_SHARDS_MS = 5_000;

/** Sleeps, or less when stopped; the abort listener goes with the timer (a follower sleeps often). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });

async function latestStreamArn(dynamodb: DynamoDBClient, tableName: string): Promise<string> {
  const table = await dynamodb.send(new DescribeTableCommand({ TableName: tableName }));
  const arn = table.Table?.LatestStreamArn;
  if (!arn) throw new Error(`Table ${tableName} has no stream to follow`);
  return arn;
}

/**
 * One consumer of the stream, as the pipe and the bookkeeper's event source mapping each are in
 * AWS: its own shard iterators, its own place in each shard, its own pace.
 */
interface ShardReader {
  /** For logs. */
  name: string;
  /** Whether this reader finished the (closed) shard, in this process or before. */
  isDone(shardId: string): boolean;
  /** Where this reader resumes in the shard: after this sequence number; none, from the oldest record. */
  resumeAfter(shardId: string): string | undefined;
  /** Runs before the shard's first page in this process; false when stopped first. */
  prepare?(shardId: string): Promise<boolean>;
  /** Handles one page of the shard's records, in order; false when stopped before it finished. */
  handle(shardId: string, records: RawStreamRecord[]): Promise<boolean>;
  /** The shard was read to its end (every page handled). */
  closed(shardId: string): void;
  /** Whether to hold off reading (the queue's memory bound). */
  paused?(): boolean;
}

export async function startStreamFollower(options: StreamFollowerOptions): Promise<StreamFollower> {
  const filters = options.filters ?? INTAKE_FILTER_PATTERNS;
  const idleMs = options.idleMs ?? 250;
  const maxInFlight = options.maxInFlight ?? 100_000;
  const streamArn = await latestStreamArn(options.dynamodb, options.tableName);

  const streams = new LocalStreamsClient(options.dynamodbEndpoint, options.region, options.accessKeyId);
  const position = new StreamPosition(options.positionFile, streamArn);
  const abort = new AbortController();
  const stats = { read: 0, sent: 0, bookkept: 0 };
  const bookkeeper = options.bookkeeper;
  const bookkeeperFilters = bookkeeper?.filters ?? BOOKKEEPER_FILTER_PATTERNS;

  /** Reads every shard for one reader, until stopped: see ShardReader. */
  async function follow(reader: ShardReader): Promise<void> {
    const cursors = new Map<string, Cursor>();
    let listedAt = 0;

    async function listShards(): Promise<void> {
      const shards = await streams.listShards(streamArn, abort.signal);
      listedAt = Date.now();
      const listed = new Set(shards.map((shard) => shard.ShardId));
      position.prune([...listed]);
      for (const shardId of cursors.keys()) if (!listed.has(shardId)) cursors.delete(shardId);
      for (const shard of shards) {
        if (cursors.has(shard.ShardId) || reader.isDone(shard.ShardId)) continue;
        const parent = shard.ParentShardId;
        const parentPending = parent && listed.has(parent) && !reader.isDone(parent) && !cursors.get(parent)?.readToEnd;
        if (parentPending) continue;
        const resumeAfter = reader.resumeAfter(shard.ShardId);
        cursors.set(shard.ShardId, {
          shardId: shard.ShardId,
          ...(resumeAfter ? { lastRead: resumeAfter } : {}),
          readToEnd: false,
        });
      }
    }

    async function iteratorFor(cursor: Cursor): Promise<string | undefined> {
      if (cursor.lastRead) {
        try {
          const type = "AFTER_SEQUENCE_NUMBER";
          return await streams.shardIterator(streamArn, cursor.shardId, type, cursor.lastRead, abort.signal);
        } catch (error) {
          if ((error as Error).name !== "TrimmedDataAccessException") throw error;
          log.warn("stream follower: records after the saved position expired; resuming from the oldest left", {
            reader: reader.name,
            shardId: cursor.shardId,
          });
        }
      }
      // Like the pipe's and the mapping's startingPosition TRIM_HORIZON: every record the stream still holds.
      return streams.shardIterator(streamArn, cursor.shardId, "TRIM_HORIZON", undefined, abort.signal);
    }

    /** Reads one page of a shard; returns how many records came. */
    async function readShard(cursor: Cursor): Promise<number> {
      if (!cursor.prepared) {
        if (reader.prepare && !(await reader.prepare(cursor.shardId))) return 0;
        cursor.prepared = true;
      }
      cursor.iterator ??= await iteratorFor(cursor);
      if (!cursor.iterator) {
        cursor.readToEnd = true;
        reader.closed(cursor.shardId);
        return 0;
      }
      let page: Awaited<ReturnType<LocalStreamsClient["getRecords"]>>;
      try {
        page = await streams.getRecords(cursor.iterator, RECORDS_PER_CALL, abort.signal);
      } catch (error) {
        // Iterators expire after 15 minutes; a new one resumes after the last record read.
        cursor.iterator = undefined;
        if ((error as Error).name === "ExpiredIteratorException") return 0;
        throw error;
      }
      // The pipe and Lambda add the stream's ARN to each record; GetRecords does not return it.
      const records = page.Records.map((raw): RawStreamRecord => ({ ...raw, eventSourceARN: streamArn }));
      if (!(await reader.handle(cursor.shardId, records))) return 0;
      const last = page.Records.at(-1);
      if (last) cursor.lastRead = last.dynamodb.SequenceNumber;
      cursor.iterator = page.NextShardIterator;
      if (!page.NextShardIterator) {
        cursor.readToEnd = true;
        reader.closed(cursor.shardId);
        listedAt = 0;
      }
      return page.Records.length;
    }

    async function step(): Promise<void> {
      if (Date.now() - listedAt > RELIST_SHARDS_MS) await listShards();
      let received = 0;
      for (const cursor of cursors.values()) {
        if (cursor.readToEnd || abort.signal.aborted || reader.paused?.()) continue;
        received += await readShard(cursor);
      }
      if (received === 0) await sleep(idleMs, abort.signal);
    }

    while (!abort.signal.aborted) {
      try {
        await step();
      } catch (error) {
        if (abort.signal.aborted) break;
        log.warn("stream follower: reading the stream failed, retrying", { reader: reader.name, ...describeError(error) });
        await sleep(1_000, abort.signal);
      }
    }
  }

  /**
   * Sends in order, at most 10 records and 1 MiB of bodies per SendMessageBatch (SQS refuses a
   * larger request whole, BatchRequestTooLong, which no retry would cure: large submissions a
   * few at a time), retrying until accepted or stopped.
   */
  async function send(batch: { record: RawStreamRecord; entry: ReturnType<StreamPosition["track"]> }[]) {
    for (const chunk of sendableChunks(batch.map((item) => ({ ...item, body: queueBody(item.record) })))) {
      const [only] = chunk;
      if (chunk.length === 1 && only && Buffer.byteLength(only.body) > BATCH_BYTES) {
        // Larger than any request SQS takes: the pipe would give up on it too (its DLQ).
        log.error("stream follower: the queue refused a record", { eventID: only.record.eventID, code: "BatchRequestTooLong" });
        position.finish(only.entry);
        continue;
      }
      let pending = chunk.map((item, index) => ({ ...item, id: String(index) }));
      for (let attempt = 0; pending.length > 0 && !abort.signal.aborted; attempt++) {
        if (attempt > 0) await sleep(Math.min(5_000, 100 * 2 ** attempt), abort.signal);
        try {
          const out = await options.sqs.send(
            new SendMessageBatchCommand({
              QueueUrl: options.queueUrl,
              Entries: pending.map((item) => ({ Id: item.id, MessageBody: item.body })),
            }),
          );
          for (const ok of out.Successful ?? []) {
            const item = pending.find((p) => p.id === ok.Id);
            if (item && ok.MessageId) position.bind(item.entry, ok.MessageId);
            stats.sent++;
          }
          for (const failed of out.Failed ?? []) {
            const item = pending.find((p) => p.id === failed.Id);
            if (item && failed.SenderFault) {
              // The queue refuses this record for good (e.g. larger than the message size limit).
              // The pipe would give up on it too, after its retries, and report it to its DLQ.
              log.error("stream follower: the queue refused a record", {
                eventID: item.record.eventID,
                code: failed.Code,
                error: failed.Message,
              });
              position.finish(item.entry);
            }
          }
          const retry = new Set((out.Failed ?? []).filter((f) => !f.SenderFault).map((f) => f.Id));
          pending = pending.filter((item) => retry.has(item.id));
        } catch (error) {
          if (abort.signal.aborted) return;
          log.warn("stream follower: sending to the queue failed, retrying", describeError(error));
        }
      }
    }
  }

  let paused = false;
  /** The pipe: every record the intake filters pass, one message each, in the shard's order. */
  const pipe: ShardReader = {
    name: "pipe",
    isDone: (shardId) => position.isDone(shardId),
    resumeAfter: (shardId) => position.checkpoint(shardId),
    async handle(shardId, records) {
      const batch: Parameters<typeof send>[0] = [];
      for (const record of records) {
        const sequenceNumber = record.dynamodb.SequenceNumber;
        if (matchesAny(filters, record)) batch.push({ record, entry: position.track(shardId, sequenceNumber) });
        else position.skip(shardId, sequenceNumber);
      }
      await send(batch);
      if (abort.signal.aborted) return false;
      stats.read += records.length;
      return true;
    },
    closed: (shardId) => position.close(shardId),
    paused() {
      const full = position.inFlight() >= maxInFlight;
      if (full !== paused) {
        paused = full;
        if (full) log.warn("stream follower: too many unconsumed messages, pausing", { inFlight: position.inFlight() });
      }
      return full;
    },
  };

  const readers = [follow(pipe)];
  if (bookkeeper) {
    /** Hands one batch to the bookkeeper until it succeeds; false when stopped first. */
    const handOver = async (shardId: string, records: RawStreamRecord[]): Promise<boolean> => {
      for (let attempt = 0; !abort.signal.aborted; attempt++) {
        if (attempt > 0) await sleep(Math.min(5_000, 100 * 2 ** attempt), abort.signal);
        if (abort.signal.aborted) break;
        try {
          await bookkeeper.handler({ Records: records } as unknown as DynamoDBStreamEvent);
          stats.bookkept += records.length;
          return true;
        } catch (error) {
          log.warn("stream follower: the bookkeeper failed; the batch is handed over again", {
            shardId,
            first: records[0]?.eventID,
            records: records.length,
            ...describeError(error),
          });
        }
      }
      return false;
    };

    /**
     * The bookkeeper's event source mapping: the records its filters pass, in the shard's order,
     * in batches of at most its batch size, each written down before and after.
     */
    const mapping: ShardReader = {
      name: "bookkeeper",
      isDone: (shardId) => position.isBookkeepingDone(shardId),
      resumeAfter: (shardId) => position.bookkept(shardId),
      /** The batch the previous process handed over and did not see finish, read again first and handed over as it was. */
      async prepare(shardId) {
        const bounds = position.bookkeeperBatch(shardId);
        if (!bounds) return true;
        const records: RawStreamRecord[] = [];
        let iterator: string | undefined;
        try {
          iterator = await streams.shardIterator(streamArn, shardId, "AT_SEQUENCE_NUMBER", bounds.first, abort.signal);
        } catch (error) {
          if ((error as Error).name !== "TrimmedDataAccessException") throw error;
          log.warn("stream follower: an unfinished bookkeeper batch expired from the stream", { shardId });
        }
        const last = BigInt(bounds.last);
        while (iterator && !abort.signal.aborted) {
          const page = await streams.getRecords(iterator, RECORDS_PER_CALL, abort.signal);
          for (const raw of page.Records) {
            if (BigInt(raw.dynamodb.SequenceNumber) > last) break;
            const record: RawStreamRecord = { ...raw, eventSourceARN: streamArn };
            if (matchesAny(bookkeeperFilters, record)) records.push(record);
          }
          const end = page.Records.at(-1);
          if (page.Records.length === 0 || (end && BigInt(end.dynamodb.SequenceNumber) >= last)) break;
          iterator = page.NextShardIterator;
        }
        if (abort.signal.aborted) return false;
        if (records.length > 0 && !(await handOver(shardId, records))) return false;
        position.bookkeep(shardId, bounds.last);
        return true;
      },
      async handle(shardId, records) {
        const after = position.bookkept(shardId);
        const relevant = records.filter(
          (record) =>
            (after === undefined || BigInt(record.dynamodb.SequenceNumber) > BigInt(after)) &&
            matchesAny(bookkeeperFilters, record),
        );
        for (let start = 0; start < relevant.length; start += bookkeeper.batchSize) {
          const batch = relevant.slice(start, start + bookkeeper.batchSize);
          const bounds = {
            first: (batch[0] as RawStreamRecord).dynamodb.SequenceNumber,
            last: (batch.at(-1) as RawStreamRecord).dynamodb.SequenceNumber,
          };
          position.beginBatch(shardId, bounds);
          if (!(await handOver(shardId, batch))) return false;
          position.bookkeep(shardId, bounds.last);
        }
        // The page's other records needed nothing: the next start reads after them.
        const last = records.at(-1)?.dynamodb.SequenceNumber;
        const kept = position.bookkept(shardId);
        if (last && (kept === undefined || BigInt(last) > BigInt(kept))) position.bookkeep(shardId, last, { saveNow: false });
        return true;
      },
      closed: (shardId) => position.closeBookkeeping(shardId),
    };
    readers.push(follow(mapping));
  }

  return {
    settle: (messageIds) => position.settle(messageIds),
    stats: () => ({ ...stats, inFlight: position.inFlight(), unsaved: position.unsaved() }),
    stop: async () => {
      abort.abort();
      await Promise.all(readers);
      position.flush();
    },
  };
}
