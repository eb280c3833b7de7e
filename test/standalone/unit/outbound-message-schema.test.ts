import { deliveryMessageSchema, hopDelaySeconds } from "../../../lib/outbound/messages";

describe("internal delivery messages", () => {
  test("a retry hours away travels in hops of at most 15 minutes, never early", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    const at = (ms: number) => new Date(now + ms).toISOString();
    expect(hopDelaySeconds(at(5 * 3600_000), now)).toBe(900);
    expect(hopDelaySeconds(at(901_000), now)).toBe(900);
    expect(hopDelaySeconds(at(899_500), now)).toBe(900);
    expect(hopDelaySeconds(at(5_200), now)).toBe(6);
    expect(hopDelaySeconds(at(0), now)).toBe(0);
    expect(hopDelaySeconds(at(-60_000), now)).toBe(0);
    // Hop by hop: 5 hours is 20 hops of 900 s.
    let clock = now;
    let hops = 0;
    const due = at(5 * 3600_000);
    while (Date.parse(due) > clock) {
      clock += hopDelaySeconds(due, clock) * 1000;
      hops += 1;
    }
    expect(hops).toBe(20);
  });

  test("the versioned schema producers and the consumer share", () => {
    const good = {
      v: 1,
      kind: "delivery",
      deliveryId: `dlv_${"a".repeat(22)}`,
      attempt: 2,
      dueAt: "2026-01-01T00:00:00.000Z",
      token: "abc",
    };
    expect(deliveryMessageSchema.safeParse(good).success).toBe(true);
    for (const bad of [
      { ...good, v: 2 },
      { ...good, kind: "other" },
      { ...good, deliveryId: "dlv_short" },
      { ...good, attempt: 0 },
      { ...good, dueAt: "tomorrow" },
      { ...good, token: "" },
      { ...good, extra: true },
    ]) {
      expect(deliveryMessageSchema.safeParse(bad).success).toBe(false);
    }
  });
});
