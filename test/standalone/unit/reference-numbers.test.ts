import { nextBlockSize, REFERENCE_BLOCKS } from "../../../lib/intake/reference-numbers";

/** The block sizes of lib/intake/reference-numbers.ts (docs/data-model.md, "Reference numbers"). */
const { max, busyMs, idleMs } = REFERENCE_BLOCKS;

describe("reference block sizes", () => {
  test("an instance's first block for a site is one number", () => {
    expect(nextBlockSize({ size: 0, reservedAt: 0 }, 1_000_000)).toBe(1);
  });

  test("a block used up within a second doubles the next, up to the cap", () => {
    let last = { size: 1, reservedAt: 0 };
    const sizes: number[] = [];
    for (let i = 1; i <= 9; i++) {
      const size = nextBlockSize(last, last.reservedAt + busyMs - 1);
      sizes.push(size);
      last = { size, reservedAt: last.reservedAt + busyMs - 1 };
    }
    expect(sizes).toEqual([2, 4, 8, 16, 32, 64, 64, 64, 64]);
    expect(max).toBe(64);
  });

  test("a block that lasted a second or more halves the next; after an idle spell it is one number again", () => {
    expect(nextBlockSize({ size: 32, reservedAt: 0 }, busyMs)).toBe(16);
    expect(nextBlockSize({ size: 1, reservedAt: 0 }, busyMs)).toBe(1);
    expect(nextBlockSize({ size: 64, reservedAt: 0 }, idleMs - 1)).toBe(32);
    expect(nextBlockSize({ size: 64, reservedAt: 0 }, idleMs)).toBe(1);
  });

  test("at a submission a second or fewer, every block is one number: an instance that stops leaves none unused", () => {
    let last = { size: 0, reservedAt: 0 };
    for (let t = 0; t < 60_000; t += busyMs) {
      const size = nextBlockSize(last, t);
      expect(size).toBe(1);
      last = { size, reservedAt: t };
    }
  });

  test("a busy instance settles near a second's worth of numbers per block", () => {
    // 20 submissions a second on one instance: each block lasts size / 20 seconds.
    const rate = 20;
    let last = { size: 1, reservedAt: 0 };
    const sizes: number[] = [];
    for (let i = 0; i < 40; i++) {
      const at = last.reservedAt + (last.size / rate) * 1000;
      const size = nextBlockSize(last, at);
      sizes.push(size);
      last = { size, reservedAt: at };
    }
    const settled = sizes.slice(10);
    expect(Math.min(...settled)).toBeGreaterThanOrEqual(rate / 2);
    expect(Math.max(...settled)).toBeLessThanOrEqual(rate * 2);
  });
});
