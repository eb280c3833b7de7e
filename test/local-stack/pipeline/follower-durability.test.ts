import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { eventually } from "../../support/eventually";

/**
 * The local hand-off survives kill -9. The SQS emulator keeps messages in memory, so a stack
 * killed with messages queued loses them; the stream follower must then send them again from its
 * position in the data folder. A separate process (support/follower-process.ts) runs a follower,
 * its own in-memory queue and a recording consumer, following the test table for an item type
 * of this run only (so the stack's own pipeline ignores these items).
 */
interface Stats {
  read: number;
  sent: number;
  bookkept: number;
  inFlight: number;
  unsaved: boolean;
  consumed: number;
}

const ITEMS = 40;

function startPipeline(env: Record<string, string>) {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "test/local-stack/pipeline/support/follower-process.ts"],
    {
      cwd: process.cwd(),
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stats: Stats = { read: 0, sent: 0, bookkept: 0, inFlight: 0, unsaved: false, consumed: 0 };
  let output = "";
  let buffered = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) if (line.startsWith("{")) stats = JSON.parse(line) as Stats;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    waitFor: async (what: string, ok: (s: Stats) => boolean, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!ok(stats)) {
        if (child.exitCode !== null) throw new Error(`the pipeline process exited early:\n${output}`);
        if (Date.now() > deadline) throw new Error(`${what}: not reached (stats ${JSON.stringify(stats)})\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return stats;
    },
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

const deliveries = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

test("records whose messages were not consumed are delivered after kill -9 and restart", async () => {
  const run = randomUUID();
  const itemType = `durability-test-${run}`;
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-follower-"));
  const deliveriesFile = join(dataDir, "deliveries.txt");
  const env = { DATA_DIR: dataDir, ITEM_TYPE: itemType, DELIVERIES_FILE: deliveriesFile };
  const pks = Array.from({ length: ITEMS }, (_, i) => `durability-${run}-${String(i).padStart(3, "0")}`);

  // 1. Sent to the (in-memory) queue, never consumed, then killed.
  // (A fresh follower starts from the oldest record the stream holds, so the order of these
  // two steps does not matter.)
  const first = startPipeline({ ...env, CONSUME_LIMIT: "0" });
  const items = pks.map((pk) => ({ PutRequest: { Item: { pk, sk: "TEST", type: itemType } } }));
  for (let i = 0; i < items.length; i += 25) {
    await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: items.slice(i, i + 25) } }));
  }
  await first.waitFor("all sent", (s) => s.sent === ITEMS);
  await first.kill();
  expect(deliveries(deliveriesFile)).toEqual([]);

  // 2. Restarted from the same data folder: everything is sent again; a quarter is consumed,
  //    the rest fails and stays queued; killed again.
  const consumedFirst = ITEMS / 4;
  const second = startPipeline({ ...env, CONSUME_LIMIT: String(consumedFirst) });
  // ... and the position file written (within ~100 ms of a change).
  await second.waitFor(
    "re-sent, partly consumed and saved",
    (s) => s.sent === ITEMS && s.consumed === consumedFirst && s.inFlight === ITEMS - consumedFirst && !s.unsaved,
  );
  await second.kill();
  const afterSecond = deliveries(deliveriesFile);
  expect(afterSecond).toHaveLength(consumedFirst);

  // 3. Restarted again: whatever was not consumed is delivered; every record at least once.
  const third = startPipeline(env);
  const missing = pks.filter((pk) => !afterSecond.includes(pk));
  await third.waitFor("the rest consumed", (s) => s.consumed >= missing.length && s.inFlight === 0);
  const thirdDeliveries = deliveries(deliveriesFile).slice(afterSecond.length);
  await third.kill();

  expect(new Set([...afterSecond, ...thirdDeliveries])).toEqual(new Set(pks));
  expect(thirdDeliveries).toEqual(expect.arrayContaining(missing));
  // The position moved past what was consumed in a row: not everything had to be sent again.
  expect(thirdDeliveries.length).toBeLessThan(ITEMS);
}, 60_000);

/** The batches a pipeline process handed to its bookkeeper, in order: each one's event ids, and which were finished. */
function handedOver(file: string): { batches: string[][]; done: string[] } {
  const lines = deliveries(file).map((line) => JSON.parse(line) as { eventIds?: string[]; done?: string });
  return {
    batches: lines.flatMap((l) => (l.eventIds ? [l.eventIds] : [])),
    done: lines.flatMap((l) => (l.done ? [l.done] : [])),
  };
}

test("a bookkeeper's batch interrupted by kill -9 is handed over again as it was, and a finished one never again", async () => {
  const run = randomUUID();
  const itemType = `bookkeeper-durability-${run}`;
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-follower-"));
  const batchesFile = join(dataDir, "batches.txt");
  const env = {
    DATA_DIR: dataDir,
    ITEM_TYPE: itemType,
    DELIVERIES_FILE: join(dataDir, "deliveries.txt"),
    BATCHES_FILE: batchesFile,
    BOOKKEEPER_BATCH_SIZE: "10",
  };
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    PutRequest: { Item: { pk: `bookkeeper-${run}-${String(i).padStart(3, "0")}`, sk: "TEST", type: itemType } },
  }));
  for (let i = 0; i < items.length; i += 25) {
    await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: items.slice(i, i + 25) } }));
  }

  // 1. The first batch's handler never returns: killed in the middle of it. The queue's reader
  //    is a consumer of the stream of its own (as the pipe is in AWS): it is not held up meanwhile.
  const first = startPipeline({ ...env, HANG_ON_FIRST_BATCH: "1" });
  await eventually("the first batch handed over", () => handedOver(batchesFile).batches.length === 1);
  await first.waitFor("every record consumed and saved", (s) => s.consumed === ITEMS && s.inFlight === 0 && !s.unsaved);
  await first.kill();
  const [interrupted] = handedOver(batchesFile).batches as [string[]];
  // A batch holds at most BOOKKEEPER_BATCH_SIZE records, and only the records of one GetRecords
  // page: the shared table's stream holds other tests' records too, so a page may end after just
  // one of this run's (as a batch of an event source mapping may be smaller than its size).
  expect(interrupted.length).toBeGreaterThanOrEqual(1);
  expect(interrupted.length).toBeLessThanOrEqual(10);
  expect(handedOver(batchesFile).batches).toHaveLength(1);
  expect(deliveries(env.DELIVERIES_FILE)).toHaveLength(ITEMS);

  // 2. Restarted: the same batch first (same first record, same records), then the rest, each
  //    once; the queue's records, all consumed before, are not sent again.
  const second = startPipeline(env);
  await second.waitFor("every record bookkept", (s) => s.bookkept === ITEMS && !s.unsaved);
  await second.kill();
  expect(deliveries(env.DELIVERIES_FILE)).toHaveLength(ITEMS);
  const after = handedOver(batchesFile);
  expect(after.batches[1]).toEqual(interrupted);
  const records = after.batches.slice(1).flat();
  expect(records).toHaveLength(ITEMS);
  expect(new Set(records).size).toBe(ITEMS);
  expect(after.done).toEqual(after.batches.slice(1).map((b) => b[0]));

  // 3. Restarted again: every batch was finished and saved; the next one handed over is only a
  //    record written now.
  const third = startPipeline(env);
  await db().send(
    new BatchWriteCommand({
      RequestItems: { [tableName()]: [{ PutRequest: { Item: { pk: `bookkeeper-${run}-new`, sk: "TEST", type: itemType } } }] },
    }),
  );
  await third.waitFor("the new record bookkept", (s) => s.bookkept === 1);
  await third.kill();
  const last = handedOver(batchesFile);
  expect(last.batches).toHaveLength(after.batches.length + 1);
  expect(last.batches.at(-1)).toHaveLength(1);
}, 90_000);
