import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { postWebhook } from "../../../lib/outbound/http";

describe("one HTTP attempt", () => {
  let server: ReturnType<typeof createServer>;
  let base: string;
  const seen: { headers: Record<string, unknown>; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push({ headers: req.headers, body });
        if (req.url === "/redirect") {
          res.writeHead(302, { location: "/ok" });
          res.end();
        } else if (req.url === "/slow") {
          setTimeout(() => res.writeHead(200).end("late"), 3000).unref();
        } else if (req.url === "/busy") {
          res.writeHead(429, { "retry-after": "30" }).end();
        } else {
          res.writeHead(200).end("fine");
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const send = (path: string, extra: { allowPrivate?: boolean; timeoutMs?: number; host?: string } = {}) =>
    postWebhook({
      url: `${extra.host ?? base}${path}`,
      headers: { "content-type": "application/json", "webhook-id": "dlv_x" },
      body: '{"a":1}',
      timeoutMs: extra.timeoutMs ?? 2000,
      allowPrivate: extra.allowPrivate ?? true,
    });

  test("posts the body with its headers and reports the status", async () => {
    const result = await send("/ok");
    expect(result).toMatchObject({ statusCode: 200, error: null, refused: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen.at(-1)).toMatchObject({
      body: '{"a":1}',
      headers: expect.objectContaining({ "webhook-id": "dlv_x", "content-length": "7" }),
    });
  });

  test("never follows a redirect", async () => {
    const before = seen.length;
    const result = await send("/redirect");
    expect(result).toMatchObject({ statusCode: 302, location: "/ok" });
    expect(seen.length).toBe(before + 1);
  });

  test("reports Retry-After", async () => {
    expect(await send("/busy")).toMatchObject({ statusCode: 429, retryAfter: "30" });
  });

  test("gives up after the timeout", async () => {
    const result = await send("/slow", { timeoutMs: 300 });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/timed out after 300 ms/);
    expect(result.durationMs).toBeLessThan(2000);
  });

  test("with the guard on, never connects to loopback, by literal or by name", async () => {
    const before = seen.length;
    const literal = await send("/ok", { allowPrivate: false });
    expect(literal).toMatchObject({ statusCode: null, refused: true });
    const port = new URL(base).port;
    const byName = await send("/ok", { allowPrivate: false, host: `http://localhost:${port}` });
    expect(byName).toMatchObject({ statusCode: null, refused: true });
    expect(byName.error).toMatch(/refused address/);
    expect(seen.length).toBe(before);
  });

  test("a closed port is a failure, not a throw", async () => {
    const result = await send("/", { host: "http://127.0.0.1:1" });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});
