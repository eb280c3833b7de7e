import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jest } from "@jest/globals";
import { StreamPosition } from "../../../infra/local/stream-position";

const STREAM = "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2026-01-01T00:00:00.000";
const seq = (n: number) => String(n).padStart(21, "0");
const fresh = () => join(mkdtempSync(join(tmpdir(), "inlet-position-")), "position.json");

describe("the stream follower's position", () => {
  test("moves only over the finished prefix, whatever order messages finish in", () => {
    const position = new StreamPosition(fresh(), STREAM);
    position.skip("s1", seq(1));
    expect(position.checkpoint("s1")).toBe(seq(1));
    const a = position.track("s1", seq(2));
    const b = position.track("s1", seq(3));
    position.skip("s1", seq(4));
    const c = position.track("s1", seq(5));
    position.bind(a, "m-a");
    position.bind(b, "m-b");
    position.bind(c, "m-c");
    expect(position.inFlight()).toBe(3);

    position.settle(["m-b"]);
    expect(position.checkpoint("s1")).toBe(seq(1));
    position.settle(["m-a"]);
    // 2 and 3 are finished, 4 was dropped by the filters; 5 is still in flight.
    expect(position.checkpoint("s1")).toBe(seq(4));
    position.settle(["m-c"]);
    expect(position.checkpoint("s1")).toBe(seq(5));
    expect(position.inFlight()).toBe(0);
  });

  test("a settlement reported before the send's answer bound the message still counts", () => {
    const position = new StreamPosition(fresh(), STREAM);
    const entry = position.track("s1", seq(7));
    position.settle(["m-early"]);
    position.bind(entry, "m-early");
    expect(position.checkpoint("s1")).toBe(seq(7));
  });

  test("persists atomically and resumes after a restart; unfinished records are read again", () => {
    const file = fresh();
    const first = new StreamPosition(file, STREAM);
    first.skip("s1", seq(10));
    const inFlight = first.track("s1", seq(11));
    first.bind(inFlight, "m-11");
    first.skip("s1", seq(12));
    first.flush();
    // Killed here: message m-11 was never consumed.
    const second = new StreamPosition(file, STREAM);
    expect(second.checkpoint("s1")).toBe(seq(10));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      version: 2,
      streamArn: STREAM,
      shards: { s1: { checkpoint: seq(10) } },
    });
  });

  test("a closed shard is done once its last record is finished, and is forgotten when trimmed", () => {
    const file = fresh();
    const position = new StreamPosition(file, STREAM);
    const entry = position.track("s1", seq(20));
    position.bind(entry, "m-20");
    position.close("s1");
    expect(position.isDone("s1")).toBe(false);
    position.settle(["m-20"]);
    expect(position.isDone("s1")).toBe(true);
    position.flush();
    expect(new StreamPosition(file, STREAM).isDone("s1")).toBe(true);

    position.prune(["s2"]);
    position.flush();
    expect(new StreamPosition(file, STREAM).isDone("s1")).toBe(false);
  });

  test("a position saved for another stream (a recreated table) is ignored", () => {
    const file = fresh();
    const position = new StreamPosition(file, STREAM);
    position.skip("s1", seq(30));
    position.flush();
    const warn = jest.spyOn(console, "error").mockImplementation(() => undefined);
    expect(new StreamPosition(file, `${STREAM}x`).checkpoint("s1")).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("another stream"));
    warn.mockRestore();
  });

  test("the bookkeeper's batch is written before it is handed over and cleared once finished, at once (no flush waited for)", () => {
    const file = fresh();
    const position = new StreamPosition(file, STREAM);
    position.skip("s1", seq(40));
    position.beginBatch("s1", { first: seq(41), last: seq(45) });
    // Killed here: the next process hands the same batch over again.
    const restarted = new StreamPosition(file, STREAM);
    expect(restarted.bookkeeperBatch("s1")).toEqual({ first: seq(41), last: seq(45) });
    expect(restarted.bookkept("s1")).toBeUndefined();
    expect(restarted.checkpoint("s1")).toBe(seq(40));

    restarted.bookkeep("s1", seq(45));
    const next = new StreamPosition(file, STREAM);
    expect(next.bookkeeperBatch("s1")).toBeUndefined();
    expect(next.bookkept("s1")).toBe(seq(45));
    // The queue's own checkpoint is independent: it may lag behind what was bookkept.
    expect(next.checkpoint("s1")).toBe(seq(40));
  });

  test("the two readers finish a closed shard apart: the queue's done keeps the bookkeeper's place, and the other way round", () => {
    const file = fresh();
    const position = new StreamPosition(file, STREAM);
    position.skip("s1", seq(10));
    position.close("s1");
    position.bookkeep("s1", seq(5));
    position.flush();
    const restarted = new StreamPosition(file, STREAM);
    expect([restarted.isDone("s1"), restarted.isBookkeepingDone("s1"), restarted.bookkept("s1")]).toEqual([true, false, seq(5)]);

    const other = fresh();
    const ahead = new StreamPosition(other, STREAM);
    ahead.skip("s1", seq(3));
    ahead.bookkeep("s1", seq(10));
    ahead.closeBookkeeping("s1");
    ahead.flush();
    const again = new StreamPosition(other, STREAM);
    expect([again.isDone("s1"), again.isBookkeepingDone("s1"), again.checkpoint("s1")]).toEqual([false, true, seq(3)]);
  });

  test("a version 1 file (the queue's position never past the bookkeeper's): a done shard is bookkept to its end", () => {
    const file = fresh();
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        streamArn: STREAM,
        shards: { s1: { done: true }, s2: { checkpoint: seq(4), bookkept: seq(7) } },
      }),
    );
    const position = new StreamPosition(file, STREAM);
    expect([position.isBookkeepingDone("s1"), position.isBookkeepingDone("s2"), position.bookkept("s2")]).toEqual([
      true,
      false,
      seq(7),
    ]);
  });

  test("records that needed no bookkeeping move its place with the next write, not at once", () => {
    const file = fresh();
    const position = new StreamPosition(file, STREAM);
    position.bookkeep("s1", seq(20));
    position.bookkeep("s1", seq(25), { saveNow: false });
    expect(new StreamPosition(file, STREAM).bookkept("s1")).toBe(seq(20));
    position.flush();
    expect(new StreamPosition(file, STREAM).bookkept("s1")).toBe(seq(25));
  });
});
