export default async function globalTeardown(): Promise<void> {
  await globalThis.__INLET_FAKE_CAPTCHA__?.close();
  globalThis.__INLET_FAKE_CAPTCHA__ = undefined;
  const child = globalThis.__INLET_STACK__;
  const pid = child?.pid;
  if (!child || !pid || child.exitCode !== null) return;
  // The stack runs in its own process group with DynamoDB Local's JVM: stop them together.
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}
