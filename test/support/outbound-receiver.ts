import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/**
 * A webhook receiver on loopback for the outbound webhook tests: it records every request as it
 * arrived (raw body, headers) and answers each path from a script of replies, then 200. Tests
 * verify what arrived with the `standardwebhooks` package, exactly as a real receiver would.
 */

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (a slow or hanging receiver). */
  delayMs?: number;
  body?: string;
}

export interface Receiver {
  /** The URL of `path` on this receiver (`http://127.0.0.1:<port><path>`). */
  url(path: string): string;
  /** Replies for the next requests to `path`, in order; once used up, 200. */
  script(path: string, replies: Reply[]): void;
  /** Every request to `path` so far, in arrival order. */
  requests(path: string): ReceivedRequest[];
  /** Waits until `path` has received at least `count` requests. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

const flatHeaders = (req: IncomingMessage) =>
  Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]),
  );

/**
 * `replyTo`: how a request with no scripted reply is answered (default 200 "ok"), so a receiver
 * can stand in for a platform (./chat-receiver.ts).
 */
export async function startReceiver(replyTo: (request: ReceivedRequest) => Reply = () => ({ status: 200 })): Promise<Receiver> {
  const received = new Map<string, ReceivedRequest[]>();
  const scripts = new Map<string, Reply[]>();
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      const request: ReceivedRequest = {
        method: req.method ?? "",
        path,
        headers: flatHeaders(req),
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
      };
      received.set(path, [...(received.get(path) ?? []), request]);
      for (const wake of waiters) wake();
      const reply = scripts.get(path)?.shift() ?? replyTo(request);
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { "content-type": "text/plain", ...(reply.headers ?? {}) });
        res.end(reply.body ?? "ok");
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    script: (path, replies) => {
      scripts.set(path, [...replies]);
    },
    requests: (path) => [...(received.get(path) ?? [])],
    waitFor: (path, count, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const list = received.get(path) ?? [];
          if (list.length < count) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve([...list]);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`${path}: ${(received.get(path) ?? []).length} of ${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verifies a received request as a receiver does; returns the parsed event (throws if invalid). */
export function verifyDelivery(secret: string, request: ReceivedRequest): any {
  return new Webhook(secret).verify(request.body, request.headers);
}

/** A unique path per test, so tests sharing a receiver never see each other's requests. */
let counter = 0;
export const receiverPath = (label: string) => `/${label}-${process.pid}-${++counter}`;
