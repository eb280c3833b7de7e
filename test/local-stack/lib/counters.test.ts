import { randomUUID } from "node:crypto";
import { incrementCounter } from "../../../lib/store/counters";

describe("fixed-window counters", () => {
  test("count atomically per window and reset in the next window", async () => {
    const subject = randomUUID();
    const now = Date.UTC(2030, 0, 1, 0, 0, 10);
    const counts = await Promise.all(Array.from({ length: 20 }, () => incrementCounter("test", subject, 60, now)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(counts[0]?.resetAt).toBe(Date.UTC(2030, 0, 1, 0, 1, 0) / 1000);
    const next = await incrementCounter("test", subject, 60, now + 60_000);
    expect(next.count).toBe(1);
  });
});
