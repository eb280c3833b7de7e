/**
 * Polls `probe` until it answers a value (anything but undefined, null or false) and resolves
 * with it; after `timeoutMs` it fails, naming `what` and the last answer. Tests wait on the
 * condition they need, never for a fixed time.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  { timeoutMs = 20_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last answer: ${String(value)})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
