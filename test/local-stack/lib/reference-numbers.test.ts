import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { jest } from "@jest/globals";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { newId } from "../../../lib/ids";
import { REFERENCE_BLOCKS } from "../../../lib/intake/reference-numbers";
import { keys } from "../../../lib/store/keys";
import { reserveReferenceNumbers } from "../../../lib/store/sites";

/**
 * Reference numbers against DynamoDB Local: the site sequence's blocks (lib/store/sites.ts) and
 * the instance's pool (lib/intake/reference-numbers.ts), each module instance loaded apart as
 * Lambda instances are.
 */
type Numbers = typeof import("../../../lib/intake/reference-numbers");

async function instance(): Promise<Numbers> {
  let loaded: Numbers | undefined;
  await jest.isolateModulesAsync(async () => {
    loaded = await import("../../../lib/intake/reference-numbers");
  });
  if (!loaded) throw new Error("not loaded");
  return loaded;
}

async function sequenceOf(siteId: string): Promise<number> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.siteSequence(siteId), ConsistentRead: true }));
  return Number(out.Item?.seq ?? 0);
}

test("blocks of a site's sequence never overlap, whatever their sizes and however many at once", async () => {
  const siteId = newId("site");
  expect(await reserveReferenceNumbers(siteId, 1)).toEqual({ first: 1, last: 1 });
  expect(await reserveReferenceNumbers(siteId, 4)).toEqual({ first: 2, last: 5 });
  const sizes = Array.from({ length: 30 }, (_, i) => 1 + (i % 7));
  const blocks = await Promise.all(sizes.map((size) => reserveReferenceNumbers(siteId, size)));
  const numbers = blocks.flatMap(({ first, last }) => Array.from({ length: last - first + 1 }, (_, i) => first + i));
  expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 6));
  expect(await sequenceOf(siteId)).toBe(5 + sizes.reduce((a, b) => a + b, 0));
});

test("two instances taking numbers side by side: each gives its own out in order, none twice", async () => {
  const [a, b] = [await instance(), await instance()];
  expect(a).not.toBe(b);
  const siteId = newId("site");
  const take = async (numbers: Numbers) => {
    const got: number[] = [];
    for (let i = 0; i < 40; i++) {
      if (i % 3 === 0) await numbers.holdReferenceNumber(siteId);
      got.push(await numbers.takeReferenceNumber(siteId));
    }
    return got;
  };
  const [fromA, fromB] = await Promise.all([take(a), take(b)]);
  for (const got of [fromA, fromB]) expect(got).toEqual([...got].sort((x, y) => x - y));
  expect(new Set([...fromA, ...fromB]).size).toBe(80);
  const reserved = await sequenceOf(siteId);
  expect(Math.max(...fromA, ...fromB)).toBeLessThanOrEqual(reserved);
  // Unused: at most the rest of each instance's last block.
  expect(reserved - 80).toBeLessThanOrEqual(2 * (REFERENCE_BLOCKS.max - 1));
});

test("a held number is the one handed out next; holding again while one is held reserves nothing", async () => {
  const numbers = await instance();
  const siteId = newId("site");
  await numbers.holdReferenceNumber(siteId);
  expect(await sequenceOf(siteId)).toBe(1);
  await numbers.holdReferenceNumber(siteId);
  expect(await sequenceOf(siteId)).toBe(1);
  expect(await numbers.takeReferenceNumber(siteId)).toBe(1);
  // Nothing held: the next block is reserved (its size by test/standalone/unit/reference-numbers.test.ts).
  expect(await numbers.takeReferenceNumber(siteId)).toBe(2);
  const reserved = await sequenceOf(siteId);
  for (let n = 3; n <= reserved; n++) expect(await numbers.takeReferenceNumber(siteId)).toBe(n);
  expect(await sequenceOf(siteId)).toBe(reserved);
});

test("requests of one process that find no number together share one reservation (the local gateway)", async () => {
  const numbers = await instance();
  const siteId = newId("site");
  const got = await Promise.all(Array.from({ length: 50 }, () => numbers.takeReferenceNumber(siteId)));
  expect(new Set(got).size).toBe(50);
  // Blocks 1, 2, 4, ... 32, 64 one after the other: a handful of reservations, not fifty.
  const reserved = await sequenceOf(siteId);
  expect(reserved).toBeLessThan(50 + REFERENCE_BLOCKS.max);
  expect([...got].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
});
