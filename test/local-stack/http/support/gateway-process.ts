import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * A gateway in a child process on the test stack's DynamoDB Local (gateway-instance.ts): a warm
 * function instance of its own, with the intake's configuration cache set to `cacheSeconds`.
 */
export interface GatewayProcess {
  url: string;
  stop(): Promise<void>;
}

export async function startGatewayProcess(cacheSeconds: number, timeoutMs = 60_000): Promise<GatewayProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "test/local-stack/http/support/gateway-instance.ts"], {
    cwd: process.cwd(),
    env: { ...process.env, INTAKE_CACHE_SECONDS: String(cacheSeconds) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway process did not start:\n${errors}`)), timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the gateway process exited (${code}):\n${errors}`));
    });
    // Read to the end: the handlers' request lines follow, and a full pipe would stall the child.
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const url = /^\{"url":"([^"]+)"\}$/.exec(line)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve(url.replace("localhost", "127.0.0.1"));
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
