import fc from "fast-check";
import { canonicalZone, daysOf, localTime, nextDueAt, periodOf } from "../../../lib/digests/schedule";

/** When digests are due in a member's zone, and which UTC days each covers (lib/digests/schedule.ts). */

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("time zones", () => {
  test("IANA names are accepted as the platform spells them; offsets, paths and unknown names are not", () => {
    expect(canonicalZone("Europe/Paris")).toBe("Europe/Paris");
    expect(canonicalZone("europe/paris")).toBe("Europe/Paris");
    expect(canonicalZone("UTC")).toBe("UTC");
    expect(canonicalZone("America/North_Dakota/New_Salem")).toBe("America/North_Dakota/New_Salem");
    // Engines differ on whether an alias is spelled as its canonical zone (Node 20 does, 22 need not).
    expect(["America/Buenos_Aires", "America/Argentina/Buenos_Aires"]).toContain(canonicalZone("America/Argentina/Buenos_Aires"));
    expect(canonicalZone("Etc/GMT+5")).toBe("Etc/GMT+5");
    for (const bad of [
      "+01:00",
      "-05:00",
      "Mars/Olympus",
      "",
      "Europe/../Paris",
      "Europe/Paris\n",
      `A${"b".repeat(70)}`,
      "GMT+1;",
    ]) {
      expect([bad, canonicalZone(bad)]).toEqual([bad, undefined]);
    }
  });
});

describe("due times on the member's clock", () => {
  test("daily: the next digest hour, today if it is still ahead, else tomorrow", () => {
    const paris = { zone: "Europe/Paris", hour: 8, weekday: 1 };
    // 12 May 2026: Paris is UTC+2.
    expect(iso(nextDueAt("daily", paris, at("2026-05-12T05:00:00Z")))).toBe("2026-05-12T06:00:00.000Z");
    expect(iso(nextDueAt("daily", paris, at("2026-05-12T06:00:00Z")))).toBe("2026-05-13T06:00:00.000Z");
    // Across the day line: 23:00 UTC is already the 13th in Tokyo.
    const tokyo = { zone: "Asia/Tokyo", hour: 8, weekday: 1 };
    expect(iso(nextDueAt("daily", tokyo, at("2026-05-12T23:30:00Z")))).toBe("2026-05-13T23:00:00.000Z");
    expect(iso(nextDueAt("daily", tokyo, at("2026-05-12T22:30:00Z")))).toBe("2026-05-12T23:00:00.000Z");
    // A half-hour zone.
    const kolkata = { zone: "Asia/Kolkata", hour: 9, weekday: 1 };
    expect(iso(nextDueAt("daily", kolkata, at("2026-05-12T00:00:00Z")))).toBe("2026-05-12T03:30:00.000Z");
  });

  test("daylight saving: the same local hour either side of the change, and a missing hour moves an hour on", () => {
    const ny = { zone: "America/New_York", hour: 8, weekday: 1 };
    // Clocks go forward on 8 March 2026 (EST, UTC-5 → EDT, UTC-4).
    expect(iso(nextDueAt("daily", ny, at("2026-03-07T14:00:00Z")))).toBe("2026-03-08T12:00:00.000Z");
    expect(iso(nextDueAt("daily", ny, at("2026-03-06T14:00:00Z")))).toBe("2026-03-07T13:00:00.000Z");
    // And back on 1 November 2026.
    expect(iso(nextDueAt("daily", ny, at("2026-10-31T13:00:00Z")))).toBe("2026-11-01T13:00:00.000Z");
    // 02:00 does not exist on 8 March in New York: 03:00 EDT, the first moment after the gap.
    const night = { zone: "America/New_York", hour: 2, weekday: 1 };
    expect(iso(nextDueAt("daily", night, at("2026-03-08T05:00:00Z")))).toBe("2026-03-08T07:00:00.000Z");
    // 01:00 happens twice on 1 November: the first one (EDT).
    const early = { zone: "America/New_York", hour: 1, weekday: 1 };
    expect(iso(nextDueAt("daily", early, at("2026-11-01T04:00:00Z")))).toBe("2026-11-01T05:00:00.000Z");
  });

  test("weekly: the member's weekday at the hour, a week on once it passed", () => {
    const monday = { zone: "Europe/Paris", hour: 8, weekday: 1 };
    // Tuesday 12 May 2026 → Monday 18 May.
    expect(iso(nextDueAt("weekly", monday, at("2026-05-12T10:00:00Z")))).toBe("2026-05-18T06:00:00.000Z");
    // Monday 18 May at 06:00 UTC exactly: the next is a week later.
    expect(iso(nextDueAt("weekly", monday, at("2026-05-18T06:00:00Z")))).toBe("2026-05-25T06:00:00.000Z");
    const sunday = { zone: "Pacific/Auckland", hour: 7, weekday: 7 };
    // Sunday 17 May 07:00 in Auckland (UTC+12) is Saturday 16 May 19:00 UTC.
    expect(iso(nextDueAt("weekly", sunday, at("2026-05-12T10:00:00Z")))).toBe("2026-05-16T19:00:00.000Z");
  });

  test("any zone, hour, weekday and moment: strictly later, within a day (or a week), at that local hour and weekday", () => {
    const zones = [
      "UTC",
      "Europe/Paris",
      "America/New_York",
      "Asia/Kolkata",
      "Australia/Lord_Howe",
      "Pacific/Chatham",
      "America/Santiago",
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: at("2025-01-01T00:00:00Z"), max: at("2028-12-31T00:00:00Z") }),
        fc.constantFrom("daily" as const, "weekly" as const),
        (zone, hour, weekday, after, cadence) => {
          const due = nextDueAt(cadence, { zone, hour, weekday }, after);
          expect(due).toBeGreaterThan(after);
          expect(due - after).toBeLessThanOrEqual((cadence === "daily" ? 1 : 7) * 86_400_000 + 2 * 3_600_000);
          const local = localTime(zone, due);
          // The hour itself, or the first one after it when the clocks skipped it.
          expect([hour, (hour + 1) % 24]).toContain(local.hour);
          if (cadence === "weekly") {
            const day = ((new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay() + 6) % 7) + 1;
            expect(local.hour === hour ? day : weekday).toBe(weekday);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("the days a digest covers", () => {
  test("the UTC days that ended before it, from the one after the last covered", () => {
    expect(periodOf("daily", at("2026-05-12T06:00:00Z"), undefined)).toEqual({ from: "2026-05-11", to: "2026-05-11" });
    expect(periodOf("daily", at("2026-05-12T06:00:00Z"), "2026-05-10")).toEqual({ from: "2026-05-11", to: "2026-05-11" });
    expect(periodOf("weekly", at("2026-05-18T06:00:00Z"), undefined)).toEqual({ from: "2026-05-11", to: "2026-05-17" });
    expect(periodOf("weekly", at("2026-05-25T06:00:00Z"), "2026-05-17")).toEqual({ from: "2026-05-18", to: "2026-05-24" });
  });

  test("nothing new (the day was covered already): no digest", () => {
    expect(periodOf("daily", at("2026-05-12T23:00:00Z"), "2026-05-11")).toBeUndefined();
  });

  test("a long gap is cut to the last 7 days (daily) or 28 (weekly)", () => {
    expect(periodOf("daily", at("2026-05-12T06:00:00Z"), "2026-03-01")).toEqual({ from: "2026-05-05", to: "2026-05-11" });
    expect(periodOf("weekly", at("2026-05-12T06:00:00Z"), "2026-01-01")).toEqual({ from: "2026-04-14", to: "2026-05-11" });
  });

  test("consecutive digests of a member cover every day once, across daylight saving, whatever the zone", () => {
    for (const zone of ["America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "America/Adak"]) {
      const time = { zone, hour: 0, weekday: 3 };
      for (const cadence of ["daily", "weekly"] as const) {
        let due = nextDueAt(cadence, time, at("2026-01-01T00:00:00Z"));
        let covered: string | undefined;
        const days: string[] = [];
        while (due < at("2026-12-31T00:00:00Z")) {
          const period = periodOf(cadence, due, covered);
          if (period) {
            days.push(...daysOf(period));
            covered = period.to;
          }
          due = nextDueAt(cadence, time, due);
        }
        expect(new Set(days).size).toBe(days.length);
        const first = days[0] as string;
        const last = days[days.length - 1] as string;
        expect(days.length).toBe((Date.parse(last) - Date.parse(first)) / 86_400_000 + 1);
      }
    }
  });
});
