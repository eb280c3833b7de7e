import { sendableChunks } from "../../../infra/local/stream-follower";

/** The local pipe's batches (infra/local/stream-follower.ts): what SendMessageBatch accepts, in order. */

const item = (n: number, bytes: number) => ({ n, body: "x".repeat(bytes) });

test("small records go ten at a time, in order", () => {
  const chunks = sendableChunks(Array.from({ length: 23 }, (_, n) => item(n, 100)));
  expect(chunks.map((c) => c.length)).toEqual([10, 10, 3]);
  expect(chunks.flat().map((i) => i.n)).toEqual(Array.from({ length: 23 }, (_, n) => n));
});

test("large records are cut at 1 MiB of bodies per batch (eight of 370 KB: two per batch)", () => {
  const chunks = sendableChunks(Array.from({ length: 8 }, (_, n) => item(n, 370_000)));
  expect(chunks.map((c) => c.length)).toEqual([2, 2, 2, 2]);
  for (const chunk of chunks) expect(chunk.reduce((sum, i) => sum + i.body.length, 0)).toBeLessThanOrEqual(1_048_576);
  expect(chunks.flat().map((i) => i.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
});

test("a record larger than a whole batch goes alone; a batch exactly at the limit is kept whole", () => {
  expect(sendableChunks([item(0, 10), item(1, 2_000_000), item(2, 10)]).map((c) => c.map((i) => i.n))).toEqual([[0], [1], [2]]);
  expect(sendableChunks([item(0, 524_288), item(1, 524_288), item(2, 1)]).map((c) => c.length)).toEqual([2, 1]);
});
