export default async function globalTeardown(): Promise<void> {
  const child = globalThis.__INLET_STACK__;
  if (!child?.pid || child.exitCode !== null) return;
  // The stack runs in its own process group with DynamoDB Local's JVM: stop them together.
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid as number, "SIGKILL");
    } catch {
      // already gone
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}
