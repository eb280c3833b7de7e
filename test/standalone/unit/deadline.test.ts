import { deadline } from "../../../lib/deadline";

/**
 * lib/deadline.ts: a time limit that aborts a request and that each awaited step races, so it
 * holds where an abort does not reach a step (test/local-stack/lib/captcha-deadline.test.ts has
 * the fetch whose body ignores it).
 */

const never = () => new Promise<never>(() => undefined);

test("a step that settles in time answers its own outcome, and the signal is not aborted", async () => {
  const limit = deadline(1_000, "test");
  try {
    await expect(limit.within(Promise.resolve(42))).resolves.toBe(42);
    await expect(limit.within(Promise.reject(new Error("its own")))).rejects.toThrow("its own");
    expect(limit.signal.aborted).toBe(false);
  } finally {
    limit.clear();
  }
});

test("a step that never settles ends at the time limit with a TimeoutError naming it, and the signal is aborted with it", async () => {
  const limit = deadline(100, "the provider");
  const started = performance.now();
  const error = await limit.within(never()).catch((e: unknown) => e);
  expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  expect(error).toMatchObject({ name: "TimeoutError", message: "the provider: no answer within 100 ms" });
  expect(limit.signal.aborted).toBe(true);
  expect(limit.signal.reason).toBe(error);
  // Every later step is refused at once: the time is up for the whole exchange.
  await expect(limit.within(never())).rejects.toBe(error);
  limit.clear();
});

test("once cleared, the time limit never fires: nothing is aborted, nothing rejects", async () => {
  const limit = deadline(50, "test");
  limit.clear();
  await new Promise((resolve) => setTimeout(resolve, 120));
  expect(limit.signal.aborted).toBe(false);
});

test("a limit that passes while no step awaits it is no unhandled rejection", async () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", record);
  try {
    const limit = deadline(20, "test");
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(limit.signal.aborted).toBe(true);
    expect(unhandled).toEqual([]);
  } finally {
    process.off("unhandledRejection", record);
  }
});
