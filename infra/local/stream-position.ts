import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { log } from "../../lib/log";

/**
 * The local stream follower's durable position: per shard, the sequence number up to which
 * every record is finished, and which closed shards are finished entirely.
 *
 * "Finished" is stricter than "read" or "sent": the SQS emulator keeps messages in memory, so a
 * record whose message is still queued (or being processed) when the stack is killed would be
 * lost if the position had moved past it. A record is finished when the filters dropped it, or
 * when its message was deleted after the consumer succeeded, or when it was given to the DLQ
 * (the poller reports both through `settle`). Records are finished out of order (the queue is
 * not FIFO), so each shard keeps the records read since its checkpoint in read order, and the
 * checkpoint advances over the finished prefix only. After a restart, reading resumes after the
 * checkpoint: what was in flight is sent again (at least once; consumers are idempotent).
 *
 * The bookkeeper (functions/bookkeeping/) reads the same shards on its own (a second reader, as
 * its event source mapping is a second consumer of the stream in AWS), and its progress is kept
 * apart, per shard: `bookkept`, the record up to which every batch it was handed is finished (and
 * the records between needed none), `batch`, the bounds of the batch handed to it and not finished
 * yet, written (synchronously) before the handler runs, and `bookkeepingDone` once a closed shard
 * was read to its end. The two positions are independent: either may be ahead. After a kill -9,
 * the bookkeeper's reading resumes after `bookkept`; a batch that was in progress is handed over
 * again exactly as it was (same first record, same records), which its checkpoint in the table
 * makes harmless (lib/store/bookkeeping.ts). As Lambda does: a batch is retried whole, never
 * split or shifted.
 *
 * The file is replaced atomically (write, fsync, rename), so a kill -9 leaves the old or the
 * new version, never a torn one.
 */

interface PersistedShard {
  /** Every record up to and including this sequence number is finished. */
  checkpoint?: string;
  /** The shard is closed and every record of it is finished. */
  done?: true;
  /** The bookkeeper finished every batch up to and including this record. */
  bookkept?: string;
  /** The batch handed to the bookkeeper and not finished: its first and last records. */
  batch?: BookkeeperBatch;
  /** The shard is closed and the bookkeeper read it to its end. */
  bookkeepingDone?: true;
}

/** A batch's bounds in its shard (sequence numbers, both included). */
export interface BookkeeperBatch {
  first: string;
  last: string;
}

/**
 * Version 2: the bookkeeper's progress is its own (`bookkeepingDone`). In version 1 the queue's
 * position never passed the bookkeeper's, so a shard `done` there was bookkept to its end too.
 */
interface PersistedPosition {
  version: 1 | 2;
  streamArn: string;
  shards: Record<string, PersistedShard>;
}

interface Entry {
  shardId: string;
  sequenceNumber: string;
  finished: boolean;
}

interface ShardProgress {
  checkpoint?: string;
  bookkept?: string;
  batch?: BookkeeperBatch;
  done: boolean;
  bookkeepingDone: boolean;
  /** Read completely (no NextShardIterator); `done` once `pending` drains too. */
  closed: boolean;
  /** Records read after the checkpoint, in read order, until the finished prefix is cut off. */
  pending: Entry[];
}

/** Settlements of messages not bound yet are kept this long, then dropped as someone else's. */
const EARLY_SETTLE_TTL_MS = 60_000;

export class StreamPosition {
  private readonly shards = new Map<string, ShardProgress>();
  private readonly byMessageId = new Map<string, Entry>();
  /** A poller may report a message before SendMessageBatch's answer has bound its id. */
  private readonly settledEarly = new Map<string, number>();
  private inFlightCount = 0;
  private dirty = false;
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly streamArn: string,
    /** How long a change may wait before it is written (changes come in bursts). */
    private readonly flushDelayMs = 100,
  ) {
    this.load();
  }

  private load(): void {
    if (!existsSync(this.file)) return;
    let saved: PersistedPosition;
    try {
      saved = JSON.parse(readFileSync(this.file, "utf8")) as PersistedPosition;
    } catch (error) {
      log.warn("stream follower: unreadable position file, starting from the oldest record", {
        file: this.file,
        error: String(error),
      });
      return;
    }
    if ((saved.version !== 1 && saved.version !== 2) || saved.streamArn !== this.streamArn) {
      // A recreated table has a new stream: the old position means nothing there.
      log.warn("stream follower: position belongs to another stream, starting from the oldest record", {
        saved: saved.streamArn,
        current: this.streamArn,
      });
      return;
    }
    for (const [shardId, shard] of Object.entries(saved.shards)) {
      this.shards.set(shardId, {
        ...(shard.checkpoint ? { checkpoint: shard.checkpoint } : {}),
        ...(shard.bookkept ? { bookkept: shard.bookkept } : {}),
        ...(shard.batch ? { batch: shard.batch } : {}),
        done: shard.done === true,
        bookkeepingDone: shard.bookkeepingDone === true || (saved.version === 1 && shard.done === true),
        closed: shard.done === true,
        pending: [],
      });
    }
  }

  private progress(shardId: string): ShardProgress {
    let shard = this.shards.get(shardId);
    if (!shard) {
      shard = { done: false, bookkeepingDone: false, closed: false, pending: [] };
      this.shards.set(shardId, shard);
    }
    return shard;
  }

  /** Where reading a shard resumes: after this sequence number, or from the oldest record. */
  checkpoint(shardId: string): string | undefined {
    return this.shards.get(shardId)?.checkpoint;
  }

  /** The last record of the last batch the bookkeeper finished in the shard. */
  bookkept(shardId: string): string | undefined {
    return this.shards.get(shardId)?.bookkept;
  }

  /** The batch handed to the bookkeeper and not finished (after a restart: to hand over again, as it was). */
  bookkeeperBatch(shardId: string): BookkeeperBatch | undefined {
    return this.shards.get(shardId)?.batch;
  }

  /** A batch is about to be handed to the bookkeeper: written before the handler runs. */
  beginBatch(shardId: string, batch: BookkeeperBatch): void {
    this.progress(shardId).batch = batch;
    this.dirty = true;
    this.flush();
  }

  /**
   * The bookkeeper finished the shard's batch, or the records up to `last` needed none: written
   * at once, or (`saveNow: false`, only records that needed nothing) with the next write.
   */
  bookkeep(shardId: string, last: string, { saveNow = true } = {}): void {
    const shard = this.progress(shardId);
    shard.bookkept = last;
    shard.batch = undefined;
    if (saveNow) {
      this.dirty = true;
      this.flush();
    } else {
      this.changed();
    }
  }

  /** The bookkeeper read the closed shard to its end. */
  closeBookkeeping(shardId: string): void {
    this.progress(shardId).bookkeepingDone = true;
    this.changed();
  }

  /** Whether the queue's reader finished the shard: closed, and every record finished. */
  isDone(shardId: string): boolean {
    return this.shards.get(shardId)?.done === true;
  }

  /** Whether the bookkeeper's reader finished the shard. */
  isBookkeepingDone(shardId: string): boolean {
    return this.shards.get(shardId)?.bookkeepingDone === true;
  }

  /** Records whose messages are sent (or being sent) and not finished. */
  inFlight(): number {
    return this.inFlightCount;
  }

  /** Whether the position moved since the file was last written. */
  unsaved(): boolean {
    return this.dirty;
  }

  /** A record the filters dropped: finished as soon as everything before it is. */
  skip(shardId: string, sequenceNumber: string): void {
    const shard = this.progress(shardId);
    const tail = shard.pending.at(-1);
    if (!tail) {
      shard.checkpoint = sequenceNumber;
      this.changed();
    } else if (tail.finished) {
      // Nothing refers to a finished entry any more: let it stand for this record too.
      tail.sequenceNumber = sequenceNumber;
    } else {
      shard.pending.push({ shardId, sequenceNumber, finished: true });
    }
  }

  /** A record about to be sent; `bind` it to its message id once the queue accepted it. */
  track(shardId: string, sequenceNumber: string): Entry {
    const entry: Entry = { shardId, sequenceNumber, finished: false };
    this.progress(shardId).pending.push(entry);
    this.inFlightCount++;
    return entry;
  }

  bind(entry: Entry, messageId: string): void {
    if (this.settledEarly.delete(messageId)) this.finish(entry);
    else this.byMessageId.set(messageId, entry);
  }

  /** Messages deleted after success, or given to the DLQ. Unknown ids are ignored (after a while). */
  settle(messageIds: readonly string[]): void {
    const now = Date.now();
    for (const messageId of messageIds) {
      const entry = this.byMessageId.get(messageId);
      if (entry) {
        this.byMessageId.delete(messageId);
        this.finish(entry);
      } else {
        this.settledEarly.set(messageId, now);
      }
    }
    for (const [messageId, at] of this.settledEarly) {
      if (now - at > EARLY_SETTLE_TTL_MS) this.settledEarly.delete(messageId);
    }
  }

  /** A record given up without a message (the queue refused it for good). */
  finish(entry: Entry): void {
    if (entry.finished) return;
    entry.finished = true;
    this.inFlightCount--;
    this.advance(entry.shardId);
  }

  /** The shard has no more records (GetRecords returned no NextShardIterator). */
  close(shardId: string): void {
    this.progress(shardId).closed = true;
    this.advance(shardId);
  }

  /** Forgets shards the stream no longer lists (trimmed after 24 hours). */
  prune(listedShardIds: readonly string[]): void {
    const listed = new Set(listedShardIds);
    for (const [shardId, shard] of this.shards) {
      if (!listed.has(shardId) && shard.pending.length === 0) {
        this.shards.delete(shardId);
        this.changed();
      }
    }
  }

  private advance(shardId: string): void {
    const shard = this.progress(shardId);
    let moved = false;
    while (shard.pending[0]?.finished) {
      shard.checkpoint = (shard.pending.shift() as Entry).sequenceNumber;
      moved = true;
    }
    if (shard.closed && shard.pending.length === 0 && !shard.done) {
      shard.done = true;
      moved = true;
    }
    if (moved) this.changed();
  }

  private changed(): void {
    this.dirty = true;
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, this.flushDelayMs);
  }

  /** Writes the position now if it changed (also called on stop). */
  flush(): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    if (!this.dirty) return;
    const saved: PersistedPosition = { version: 2, streamArn: this.streamArn, shards: {} };
    for (const [shardId, shard] of this.shards) {
      const queue = shard.done ? { done: true as const } : shard.checkpoint ? { checkpoint: shard.checkpoint } : {};
      const bookkeeper = shard.bookkeepingDone
        ? { bookkeepingDone: true as const }
        : {
            ...(shard.bookkept ? { bookkept: shard.bookkept } : {}),
            ...(shard.batch ? { batch: shard.batch } : {}),
          };
      const entry = { ...queue, ...bookkeeper };
      if (Object.keys(entry).length > 0) saved.shards[shardId] = entry;
    }
    const temporary = `${this.file}.tmp`;
    const fd = openSync(temporary, "w");
    try {
      writeSync(fd, `${JSON.stringify(saved, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.file);
    this.dirty = false;
  }
}
