/**
 * The arithmetic of a member's read state (docs/data-model.md, "Read ranges"; docs/triage.md,
 * "Filters and unread"): which of a form's inbox submissions one member has opened, as sorted,
 * disjoint ranges of the inbox's sort key (`<createdAt>#<submissionId>`), each `[low, high)`:
 * `low` inclusive, `high` exclusive. A submission is read when its key is inside a range, unread
 * otherwise. Pure: lib/unread.ts reads and writes the item (lib/store/read-ranges.ts) and asks the
 * table whether unread submissions lie between two ranges before joining them.
 */

import type { ReadRange } from "./store/read-ranges";

export type { ReadRange };

/** Ranges a member keeps per form; past it the two oldest are joined (see capRanges). */
export const MAX_READ_RANGES = 400;

/** The lowest key of all: below every sort key of the inbox (they start with a year). */
export const LOWEST_KEY = "0";

/** The smallest string after `key`: `[key, keyAfter(key))` holds exactly `key`. */
export const keyAfter = (key: string) => `${key}\u0000`;

/** The index of the range holding `key`, or -1. Ranges are sorted: a binary search. */
export function rangeHolding(ranges: readonly ReadRange[], key: string): number {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [low, high] = ranges[mid] as ReadRange;
    if (key < low) hi = mid - 1;
    else if (key >= high) lo = mid + 1;
    else return mid;
  }
  return -1;
}

export const isRead = (ranges: readonly ReadRange[], key: string) => rangeHolding(ranges, key) >= 0;

/** The ranges just below and just above `key` (which no range holds): their indexes, or -1. */
export function neighboursOf(ranges: readonly ReadRange[], key: string): { below: number; above: number } {
  const above = ranges.findIndex(([low]) => low > key);
  const below = (above === -1 ? ranges.length : above) - 1;
  return { below, above };
}

/**
 * `key` marked read: `[key, keyAfter(key))` inserted, joined with the range below when `joinBelow`
 * (no unread inbox submission lies between them) and with the one above when `joinAbove`. The
 * same ranges when `key` is read already.
 */
export function withRead(
  ranges: readonly ReadRange[],
  key: string,
  join: { below: boolean; above: boolean } = { below: false, above: false },
): ReadRange[] {
  if (isRead(ranges, key)) return [...ranges];
  const { below, above } = neighboursOf(ranges, key);
  let low = key;
  let high = keyAfter(key);
  let start = below + 1;
  let end = above === -1 ? ranges.length : above;
  if (join.below && below >= 0) {
    low = (ranges[below] as ReadRange)[0];
    start = below;
  }
  if (join.above && above >= 0) {
    high = (ranges[above] as ReadRange)[1];
    end = above + 1;
  }
  return capRanges([...ranges.slice(0, start), [low, high], ...ranges.slice(end)]);
}

/** `key` marked unread: the range holding it split around it (its parts dropped when empty). */
export function withUnread(ranges: readonly ReadRange[], key: string): ReadRange[] {
  const at = rangeHolding(ranges, key);
  if (at < 0) return [...ranges];
  const [low, high] = ranges[at] as ReadRange;
  const parts: ReadRange[] = [];
  if (low < key) parts.push([low, key]);
  if (keyAfter(key) < high) parts.push([keyAfter(key), high]);
  return [...ranges.slice(0, at), ...parts, ...ranges.slice(at + 1)];
}

/**
 * At most MAX_READ_RANGES ranges: past it the two oldest are joined, so the oldest unread
 * submissions between them count as read (a member who left 400 islands of unread leads has
 * stopped reading the oldest ones). The item stays far below DynamoDB's 400 KB.
 */
export function capRanges(ranges: ReadRange[]): ReadRange[] {
  const out = [...ranges];
  while (out.length > MAX_READ_RANGES) {
    const [first, second] = out as [ReadRange, ReadRange];
    out.splice(0, 2, [first[0], second[1]]);
  }
  return out;
}

/**
 * The unread stretches of `[from, before)` (`before` undefined: open above), newest first: the
 * complement of the ranges there. The unread filter reads only these.
 */
export function unreadGaps(
  ranges: readonly ReadRange[],
  from: string,
  before: string | undefined,
): { from: string; before: string | undefined }[] {
  const gaps: { from: string; before: string | undefined }[] = [];
  let top = before;
  for (let i = ranges.length - 1; i >= 0; i--) {
    const [low, high] = ranges[i] as ReadRange;
    if (top !== undefined && low >= top) continue;
    if (high <= from) break;
    if (top === undefined || high < top) gaps.push({ from: high, before: top });
    top = low;
    if (top <= from) return gaps;
  }
  gaps.push({ from, before: top });
  return gaps;
}
