import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { matchRoute, toEvent } from "../../../infra/local/gateway";

/** Serves the event the gateway builds, so a real HTTP request shows its shape. */
async function capture(init: RequestInit & { path: string }) {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://x");
    const { def, pathParameters } = matchRoute(req.method ?? "GET", url.pathname);
    res.end(JSON.stringify(toEvent(req, Buffer.concat(chunks), def, pathParameters)));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  try {
    const res = await fetch(`http://127.0.0.1:${port}${init.path}`, init);
    return JSON.parse(await res.text());
  } finally {
    server.close();
  }
}

describe("the local gateway's payload format 2.0 events", () => {
  test("a JSON body is passed as text with route, path parameters, query and source IP", async () => {
    const event = await capture({
      path: "/api/v1/sites/site_1?a=1&a=2&b=x%20y",
      method: "PUT",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": "203.0.113.9", Cookie: "a=1; b=2" },
      body: '{"name":"x"}',
    });
    expect(event).toMatchObject({
      version: "2.0",
      routeKey: "PUT /api/v1/sites/{id}",
      rawPath: "/api/v1/sites/site_1",
      rawQueryString: "a=1&a=2&b=x%20y",
      queryStringParameters: { a: "1,2", b: "x y" },
      pathParameters: { id: "site_1" },
      cookies: ["a=1", "b=2"],
      body: '{"name":"x"}',
      isBase64Encoded: false,
    });
    expect(event.headers["content-type"]).toBe("application/json");
    expect(event.headers.cookie).toBeUndefined();
    // The client IP is the socket's, never a header a client can forge.
    expect(event.requestContext.http.sourceIp).toBe("127.0.0.1");
    expect(event.requestContext.http.method).toBe("PUT");
    expect(event.requestContext.stage).toBe("$default");
  });

  test("form bodies arrive base64-encoded, as API Gateway sends them", async () => {
    const form = new FormData();
    form.append("email", "ada@example.com");
    const multipart = await capture({ path: "/api/v1/anything", method: "POST", body: form });
    expect(multipart.isBase64Encoded).toBe(true);
    expect(Buffer.from(multipart.body, "base64").toString("utf8")).toContain("ada@example.com");
    expect(multipart.routeKey).toBe("$default");

    const urlencoded = await capture({
      path: "/x",
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "name=%C3%A9",
    });
    expect(urlencoded.isBase64Encoded).toBe(true);
    expect(Buffer.from(urlencoded.body, "base64").toString("utf8")).toBe("name=%C3%A9");
  });
});

describe("the local gateway's routing", () => {
  test("the local gateway matches route keys as API Gateway does", () => {
    expect(matchRoute("GET", "/api/v1/sites/site_abc").def.route).toBe("GET /api/v1/sites/{id}");
    expect(matchRoute("GET", "/api/v1/sites/site_abc").pathParameters).toEqual({ id: "site_abc" });
    expect(matchRoute("GET", "/api/v1/sites/a/b").def.route).toBe("$default");
    expect(matchRoute("PATCH", "/api/v1/sites").def.route).toBe("$default");
    expect(matchRoute("GET", "/api/v1/sites/").def.route).toBe("$default");
  });
});
