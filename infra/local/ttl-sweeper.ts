import { DeleteCommand, type DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../../lib/aws/dynamodb";
import { describeError, log } from "../../lib/log";
import { TABLE } from "../../lib/store/table-definition";

/**
 * DynamoDB's TTL on this machine. DynamoDB deletes an item some time after the epoch second of
 * its `ttl` attribute (lib/store/table-definition.ts), with a background process that costs no
 * write units, and each deletion is a REMOVE on the table stream
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html).
 * DynamoDB Local keeps expired items forever, so the local stack runs this sweeper instead: every
 * LOCAL_TTL_SWEEP_SECONDS it Scans the table for items whose `ttl` has passed and deletes each
 * with a DeleteItem conditioned on the `ttl` still being past, so an item re-dated meanwhile (a
 * retention change, a moderation) is never deleted. Its deletions flow through the stream like
 * DynamoDB's own: the bookkeeper lowers the counts, drops the search entries and the records that
 * follow a submission out (docs/data-model.md). A Scan is fine here: it stands in for DynamoDB's
 * own background process, which no request of the service ever waits on.
 */

/** Deletes in flight at once. */
const PARALLEL_DELETES = 10;

export interface SweepOptions {
  /** The table's document client; lib's by default (a test process points it at the stack). */
  client?: DynamoDBDocumentClient;
  tableName?: string;
  /** Epoch seconds; now by default. Tests make an item old by moving its `ttl`, never this clock. */
  now?: number;
  /**
   * Only items whose `pk` starts with this (`SUB#`: submissions). A test sweeps only the kind it
   * expired, so another test's item kept past its `ttl` on purpose ("refused while it lingers")
   * is not swept from under it.
   */
  partitionPrefix?: string;
}

/** One sweep: deletes every item whose `ttl` is at or before `now`; answers how many it deleted. */
export async function sweepExpired(options: SweepOptions = {}): Promise<number> {
  const client = options.client ?? db();
  const TableName = options.tableName ?? tableName();
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const names = { "#ttl": TABLE.timeToLiveAttribute };
  let deleted = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName,
        FilterExpression: options.partitionPrefix ? "#ttl <= :now AND begins_with(pk, :prefix)" : "#ttl <= :now",
        ProjectionExpression: "pk, sk",
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ":now": now, ...(options.partitionPrefix ? { ":prefix": options.partitionPrefix } : {}) },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    start = page.LastEvaluatedKey;
    const found = page.Items ?? [];
    for (let i = 0; i < found.length; i += PARALLEL_DELETES) {
      const done = await Promise.all(
        found.slice(i, i + PARALLEL_DELETES).map(async (item) => {
          try {
            await client.send(
              new DeleteCommand({
                TableName,
                Key: { pk: item.pk, sk: item.sk },
                ConditionExpression: "#ttl <= :now",
                ExpressionAttributeNames: names,
                ExpressionAttributeValues: { ":now": now },
              }),
            );
            return true;
          } catch (error) {
            // Re-dated (or deleted) since the Scan read it: not expired any more.
            if (isConditionFailure(error)) return false;
            throw error;
          }
        }),
      );
      deleted += done.filter(Boolean).length;
    }
  } while (start);
  return deleted;
}

/** Sweeps every `intervalSeconds` (0: never), one sweep at a time; a failed sweep is logged and the next one tries again. */
export function startTtlSweeper(options: { client: DynamoDBDocumentClient; tableName: string; intervalSeconds: number }) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const sweep = () => {
    running = sweepExpired({ client: options.client, tableName: options.tableName }).then(
      (deleted) => {
        if (deleted > 0) log.info("ttl sweep", { deleted });
      },
      (error: unknown) => log.error("ttl sweep failed", describeError(error)),
    );
    return running;
  };
  const arm = () => {
    if (stopped || options.intervalSeconds <= 0) return;
    timer = setTimeout(() => void sweep().then(arm), options.intervalSeconds * 1000);
    timer.unref();
  };
  arm();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
