import {
  capRanges,
  isRead,
  keyAfter,
  LOWEST_KEY,
  MAX_READ_RANGES,
  neighboursOf,
  type ReadRange,
  unreadGaps,
  withRead,
  withUnread,
} from "../../../lib/read-ranges";
import { parseRanges } from "../../../lib/store/read-ranges";

/** Keys as the inbox sorts them: `k(3)` is older than `k(7)`. */
const k = (n: number) => `2026-11-27T00:00:${String(n).padStart(2, "0")}.000Z#sub_${n}`;

describe("a member's read ranges", () => {
  test("nothing is read at first; a key marked read is read, its neighbours are not", () => {
    expect(isRead([], k(1))).toBe(false);
    const ranges = withRead([], k(5));
    expect(ranges).toEqual([[k(5), keyAfter(k(5))]]);
    expect([k(4), k(5), k(6)].map((key) => isRead(ranges, key))).toEqual([false, true, false]);
  });

  test("marking read joins with the range below and above only when told nothing unread lies between", () => {
    let ranges = withRead(withRead([], k(2)), k(8));
    expect(ranges).toHaveLength(2);
    expect(neighboursOf(ranges, k(5))).toEqual({ below: 0, above: 1 });
    const apart = withRead(ranges, k(5));
    expect(apart).toHaveLength(3);
    ranges = withRead(ranges, k(5), { below: true, above: false });
    expect(ranges).toEqual([
      [k(2), keyAfter(k(5))],
      [k(8), keyAfter(k(8))],
    ]);
    // k(3) was between two read ones with nothing unread between: now inside the joined range.
    expect(isRead(ranges, k(3))).toBe(true);
    ranges = withRead(ranges, k(7), { below: false, above: true });
    expect(ranges).toEqual([
      [k(2), keyAfter(k(5))],
      [k(7), keyAfter(k(8))],
    ]);
    ranges = withRead(ranges, k(6), { below: true, above: true });
    expect(ranges).toEqual([[k(2), keyAfter(k(8))]]);
  });

  test("marking read what is read changes nothing", () => {
    const ranges: ReadRange[] = [[k(2), keyAfter(k(8))]];
    expect(withRead(ranges, k(4), { below: true, above: true })).toEqual(ranges);
  });

  test("marking unread splits the range around the key, dropping empty parts", () => {
    const ranges: ReadRange[] = [[k(2), keyAfter(k(8))]];
    const split = withUnread(ranges, k(5));
    expect(split).toEqual([
      [k(2), k(5)],
      [keyAfter(k(5)), keyAfter(k(8))],
    ]);
    expect([k(4), k(5), k(6)].map((key) => isRead(split, key))).toEqual([true, false, true]);
    expect(withUnread([[k(5), keyAfter(k(5))]], k(5))).toEqual([]);
    expect(withUnread(split, k(5))).toEqual(split);
    expect(withUnread([[k(2), keyAfter(k(5))]], k(2))).toEqual([[keyAfter(k(2)), keyAfter(k(5))]]);
  });

  test(`past ${MAX_READ_RANGES} ranges the two oldest are joined`, () => {
    let ranges: ReadRange[] = [];
    for (let i = 0; i <= MAX_READ_RANGES; i++) ranges = withRead(ranges, `${k(0)}#${String(i * 2).padStart(4, "0")}`);
    expect(ranges).toHaveLength(MAX_READ_RANGES);
    expect(ranges[0]).toEqual([`${k(0)}#0000`, keyAfter(`${k(0)}#0002`)]);
    expect(isRead(ranges, `${k(0)}#0001`)).toBe(true);
    expect(capRanges(ranges.slice(0, 3))).toHaveLength(3);
  });

  test("the unread stretches of a window, newest first", () => {
    const ranges: ReadRange[] = [
      [k(2), keyAfter(k(3))],
      [k(6), keyAfter(k(8))],
    ];
    expect(unreadGaps(ranges, LOWEST_KEY, undefined)).toEqual([
      { from: keyAfter(k(8)), before: undefined },
      { from: keyAfter(k(3)), before: k(6) },
      { from: LOWEST_KEY, before: k(2) },
    ]);
    // A window ending inside a range, and one starting inside another.
    expect(unreadGaps(ranges, k(3), k(7))).toEqual([{ from: keyAfter(k(3)), before: k(6) }]);
    expect(unreadGaps(ranges, k(7), k(8))).toEqual([]);
    expect(unreadGaps([], k(1), k(9))).toEqual([{ from: k(1), before: k(9) }]);
    expect(unreadGaps([[LOWEST_KEY, keyAfter(k(9))]], LOWEST_KEY, undefined)).toEqual([
      { from: keyAfter(k(9)), before: undefined },
    ]);
  });

  test("a stored value that is not sorted disjoint ranges reads as nothing read", () => {
    expect(parseRanges([[k(1), k(2)]])).toEqual([[k(1), k(2)]]);
    expect(parseRanges("x")).toEqual([]);
    expect(
      parseRanges([
        [k(3), k(5)],
        [k(1), k(4)],
      ]),
    ).toEqual([]);
    expect(parseRanges([[k(2), k(1)]])).toEqual([]);
  });
});
