import { jest } from "@jest/globals";
import { nextHour, startDigestSchedule } from "../../../infra/local/digest-schedule";

/** The local stand-in for EventBridge Scheduler (infra/local/digest-schedule.ts): the top of every hour, the hour as the clock. */

afterEach(() => {
  jest.useRealTimers();
});

test("the next top of the hour is strictly later", () => {
  expect(new Date(nextHour(Date.parse("2026-05-12T10:59:59.999Z"))).toISOString()).toBe("2026-05-12T11:00:00.000Z");
  expect(new Date(nextHour(Date.parse("2026-05-12T11:00:00.000Z"))).toISOString()).toBe("2026-05-12T12:00:00.000Z");
});

test("invokes the handler at each top of the hour with that hour as `time` and a counting-down context; stop ends it", async () => {
  jest.useFakeTimers({ now: Date.parse("2026-05-12T10:59:30.000Z") });
  const calls: { time: string; remaining: number }[] = [];
  const schedule = startDigestSchedule({
    handler: async (event, context) => {
      calls.push({ time: event.time, remaining: context.getRemainingTimeInMillis() });
    },
    timeoutSeconds: 300,
    memoryMb: 512,
  });
  await jest.advanceTimersByTimeAsync(29_000);
  expect(calls).toEqual([]);
  await jest.advanceTimersByTimeAsync(1_000);
  expect(calls).toEqual([{ time: "2026-05-12T11:00:00.000Z", remaining: 300_000 }]);
  await jest.advanceTimersByTimeAsync(3_600_000);
  expect(calls.map((c) => c.time)).toEqual(["2026-05-12T11:00:00.000Z", "2026-05-12T12:00:00.000Z"]);
  await schedule.stop();
  await jest.advanceTimersByTimeAsync(7_200_000);
  expect(calls).toHaveLength(2);
});

test("a failing run is logged and the next hour still runs", async () => {
  jest.useFakeTimers({ now: Date.parse("2026-05-12T10:59:59.000Z") });
  const errors = jest.spyOn(console, "error").mockImplementation(() => undefined);
  let runs = 0;
  const schedule = startDigestSchedule({
    handler: async () => {
      runs++;
      throw new Error("SES refused");
    },
    timeoutSeconds: 300,
    memoryMb: 512,
  });
  await jest.advanceTimersByTimeAsync(3_601_000);
  expect(runs).toBe(2);
  expect(errors.mock.calls.map((c) => JSON.parse(String(c[0])).message)).toEqual(["digest run failed", "digest run failed"]);
  errors.mockRestore();
  await schedule.stop();
});
