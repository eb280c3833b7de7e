import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, openSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { LOCAL_CREDENTIALS } from "../../../../infra/local/emulators";
import { type LocalStackInfo, stackFile } from "../../../../infra/local/stack-file";

/**
 * A second, whole local stack (`npm start`'s infra/local/start.ts) in a child process with its
 * own data folder, for tests that kill it: it runs in its own process group with its DynamoDB
 * Local JVM, so SIGKILL to the group is a machine losing power as far as the stack can tell.
 */
export interface StackProcess {
  child: ChildProcess;
  info: LocalStackInfo;
  /** A document client on this stack's DynamoDB Local. */
  db: DynamoDBDocumentClient;
  /** Freezes the stack's Node process only (gateway, follower, poller, consumer); DynamoDB Local runs on. */
  pause(): void;
  /** SIGKILL to the whole group, the JVM included; resolves when the Node process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, as Ctrl-C would: the stack stops cleanly. */
  stop(): Promise<void>;
}

export async function startStackProcess(dataDir: string, timeoutMs = 90_000): Promise<StackProcess> {
  const file = stackFile(dataDir);
  rmSync(file, { force: true });
  const logPath = join(dataDir, "stack.log");
  const log = openSync(logPath, "a");
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", DATA_DIR: dataDir, PASSWORD_HASH_COST: "1024", LOG_LEVEL: "warn" };
  // The test stack's settings must not leak in: this stack sets its own endpoints and URL.
  delete env.BASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "infra/local/start.ts"], {
    cwd: process.cwd(),
    env,
    detached: true,
    stdio: ["ignore", log, log],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + timeoutMs;
  let info: LocalStackInfo | undefined;
  while (!info) {
    if (child.exitCode !== null || Date.now() > deadline) {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
      throw new Error(`the second stack did not start:\n${readFileSync(logPath, "utf8").slice(-4000)}`);
    }
    if (existsSync(file)) {
      const written = JSON.parse(readFileSync(file, "utf8")) as LocalStackInfo;
      if (written.pid === child.pid) info = written;
    }
    if (!info) await new Promise((r) => setTimeout(r, 100));
  }
  const group = -(child.pid as number);
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(group, name);
    } catch {
      // already gone
    }
  };
  return {
    child,
    info,
    db: DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: info.dynamodbEndpoint, region: info.region, credentials: LOCAL_CREDENTIALS }),
      { marshallOptions: { removeUndefinedValues: true } },
    ),
    pause: () => process.kill(child.pid as number, "SIGSTOP"),
    kill: async () => {
      signal("SIGKILL");
      await exited;
    },
    stop: async () => {
      signal("SIGTERM");
      const timer = setTimeout(() => signal("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One JSON request to a stack's gateway. */
export async function call(stack: StackProcess, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${stack.info.url.replace("localhost", "127.0.0.1")}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
}
