/**
 * A time limit on a fetch and on the reading of its answer: a timer that aborts the request (which
 * frees its connection) and that each awaited step races, so the limit holds even where the abort
 * does not reach a response's body. Node's fetch (undici) can lose the link between the caller's
 * signal and the request once the request object is garbage-collected (nodejs/node#55428; a fix
 * is proposed in nodejs/undici#4984): a captcha provider that sent its headers and then stalled
 * held an intake for 6 s on a 1 s timeout in a CI run. An explicit timer, not
 * AbortSignal.timeout(), which can itself be collected while a body is awaited, and then never
 * fires. A dozen lines, so no package: p-timeout bounds one promise, where this bounds two steps
 * (the answer, then its body) and aborts the request, on one timer.
 */
export interface Deadline {
  /** For fetch's `signal`: aborted when the time is up. */
  readonly signal: AbortSignal;
  /** `step`'s outcome, or the deadline's TimeoutError if the time is up first. */
  within<T>(step: Promise<T>): Promise<T>;
  /** Stops the timer: call it in a `finally`. */
  clear(): void;
}

export function deadline(ms: number, what: string): Deadline {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const passed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const reason = new DOMException(`${what}: no answer within ${ms} ms`, "TimeoutError");
      abort.abort(reason);
      reject(reason);
    }, ms);
  });
  // Each step races it; passing while no step is awaited is no unhandled rejection.
  passed.catch(() => undefined);
  return {
    signal: abort.signal,
    within: <T>(step: Promise<T>) => Promise.race([step, passed]),
    clear: () => clearTimeout(timer),
  };
}

/** `call`, each of whose steps races one deadline of `ms`, with the timer stopped however it ends. */
export async function withDeadline<T>(ms: number, what: string, call: (limit: Deadline) => Promise<T>): Promise<T> {
  const limit = deadline(ms, what);
  try {
    return await call(limit);
  } finally {
    limit.clear();
  }
}
