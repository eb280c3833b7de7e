import type { DigestCadence as Cadence, NotifiedMember } from "../store/member-notifications";

/**
 * When a member's digests are due, in the member's time zone, and which days each one covers
 * (docs/notifications.md, "Digests"). Pure functions over the platform's own time zone database
 * (ICU through `Intl`, which Node and every browser carry): no date library in the bundle.
 *
 * A digest is due at the member's digest hour, local time (daily: every day; weekly: on the
 * member's weekday), and covers whole UTC days, because the daily counts it reads are kept per
 * UTC day (docs/data-model.md, "Daily counts"): the days that ended since the last digest of the
 * same cadence, so every day is in exactly one digest of each cadence, whatever the time zone and
 * its daylight saving changes.
 */

export const DEFAULT_DIGEST_HOUR = 8;
/** ISO weekday: 1 is Monday, 7 Sunday. */
export const DEFAULT_DIGEST_WEEKDAY = 1;

const DAY_MS = 86_400_000;

/** A name the IANA database could hold (`Europe/Paris`, `UTC`, `Etc/GMT+5`), never a bare offset. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * The zone as the platform names it (`europe/paris` → `Europe/Paris`, `US/Pacific` as given), or
 * undefined when the platform does not know it. Offsets (`+01:00`), which newer engines accept as
 * zones, are refused: a fixed offset has no daylight saving and is not what a person lives in.
 */
export function canonicalZone(zone: string): string | undefined {
  if (zone.length > 64 || !ZONE_NAME.test(zone)) return undefined;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, f);
  }
  return f;
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock time in `zone` at the instant `ms`. */
export function localTime(zone: string, ms: number): LocalTime {
  const parts: Record<string, number> = {};
  for (const { type, value } of formatter(zone).formatToParts(new Date(ms))) {
    if (type !== "literal") parts[type] = Number(value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** How far `zone` is ahead of UTC at the instant `ms`, in milliseconds. */
function offsetAt(zone: string, ms: number): number {
  const t = localTime(zone, ms);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant the clocks of `zone` show `hour`:00 on the calendar day `date` (a UTC midnight
 * standing for that calendar day). An hour that does not exist that day (clocks moved forward
 * over it) gives the instant an hour later; an hour that happens twice (clocks moved back), the
 * first.
 */
function instantOf(zone: string, date: number, hour: number): number {
  const wall = date + hour * 3_600_000;
  const first = wall - offsetAt(zone, wall);
  const second = wall - offsetAt(zone, first);
  // Two guesses agree except across a change; the earlier one that shows the hour wins.
  const candidates = [Math.min(first, second), Math.max(first, second)];
  return candidates.find((t) => localTime(zone, t).hour === hour) ?? Math.max(first, second);
}

/** ISO weekday (1 Monday … 7 Sunday) of a UTC midnight standing for a calendar day. */
const weekdayOf = (date: number) => ((new Date(date).getUTCDay() + 6) % 7) + 1;

export interface DigestTime {
  zone: string;
  hour: number;
  weekday: number;
}

/** A member's digest clock: their zone, hour and weekday (defaults until they choose). */
export const digestTime = (member: Pick<NotifiedMember, "timeZone" | "notifications">): DigestTime => ({
  zone: member.timeZone ?? "UTC",
  hour: member.notifications?.digestHour ?? DEFAULT_DIGEST_HOUR,
  weekday: member.notifications?.digestWeekday ?? DEFAULT_DIGEST_WEEKDAY,
});

/**
 * The first instant strictly after `after` (epoch ms) when a `cadence` digest is due for a member
 * whose clock is `time.zone`: the next `time.hour`:00 local, on `time.weekday` for a weekly one.
 */
export function nextDueAt(cadence: Cadence, time: DigestTime, after: number): number {
  const today = localTime(time.zone, after);
  const start = Date.UTC(today.year, today.month - 1, today.day);
  // The local date of `after` and the next 8 days hold every weekday and every DST shift.
  for (let i = 0; i <= 8; i++) {
    const date = start + i * DAY_MS;
    if (cadence === "weekly" && weekdayOf(date) !== time.weekday) continue;
    const at = instantOf(time.zone, date, time.hour);
    if (at > after) return at;
  }
  throw new Error(`no ${cadence} due time found in ${time.zone}`);
}

/** The UTC day (`YYYY-MM-DD`) of an instant. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
/** The UTC day `n` days after `day` (before, for a negative `n`). */
export const addDays = (day: string, n: number) => utcDay(dayMs(day) + n * DAY_MS);

/** The days a cadence covers when it has no earlier digest to follow, and at most after a gap. */
export const PERIOD_DAYS: Record<Cadence, { first: number; max: number }> = {
  daily: { first: 1, max: 7 },
  weekly: { first: 7, max: 28 },
};

export interface Period {
  /** First and last UTC day covered, inclusive. */
  from: string;
  to: string;
}

/**
 * The UTC days a digest due at `dueAt` covers: those that ended by then and that no earlier
 * digest of the cadence covered (`coveredUntil`, its last day), at most PERIOD_DAYS.max of them
 * (a member who was away for a month gets the last four weeks, not all). Undefined when no day
 * ended since the last one (a due time moved earlier within a UTC day).
 */
export function periodOf(cadence: Cadence, dueAt: number, coveredUntil: string | undefined): Period | undefined {
  const to = addDays(utcDay(dueAt), -1);
  const { first, max } = PERIOD_DAYS[cadence];
  const earliest = addDays(to, -(max - 1));
  const from = coveredUntil ? addDays(coveredUntil, 1) : addDays(to, -(first - 1));
  if (from > to) return undefined;
  return { from: from < earliest ? earliest : from, to };
}

/** Every UTC day of a period, oldest first. */
export function daysOf(period: Period): string[] {
  const days: string[] = [];
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) days.push(day);
  return days;
}
