import { readdirSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { webDist } from "../../../infra/web-build";
import { DASHBOARD_CSP } from "../../../infra/web-headers";
import { baseUrl } from "../../support/api";

/** A raw request (fetch would normalise `..` and refuse some methods' bodies). */
function raw(
  method: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const assetNames = () => readdirSync(join(webDist(), "assets"));

describe("the dashboard served by the local gateway, as CloudFront serves it", () => {
  test("/ and every client-side route answer index.html with the deployment's security headers", async () => {
    for (const path of ["/", "/sign-in", "/sites/site_abc?archived=true", "/forms/frm_1/spam", "/api"]) {
      const res = await raw("GET", path);
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers["content-security-policy"]).toBe(DASHBOARD_CSP);
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["strict-transport-security"]).toMatch(/^max-age=\d+/);
      expect(res.body).toContain('<div id="root"></div>');
      // The CSP forbids inline script: the page has none.
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  test("hashed assets are immutable; a missing file with an extension is 404, never index.html", async () => {
    const js = assetNames().find((name) => name.endsWith(".js"));
    const res = await raw("GET", `/assets/${js}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await raw("GET", "/assets/missing-0000.js")).status).toBe(404);
    expect((await raw("GET", "/favicon.svg")).headers["content-type"]).toBe("image/svg+xml");
  });

  test("/api/* stays the API: JSON, its 404s included", async () => {
    const res = await raw("GET", "/api/v1/no-such-route");
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(res.body)).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
  });

  test("paths that climb out of the build folder reach nothing outside it", async () => {
    for (const path of [
      "/../package.json",
      "/%2e%2e/package.json",
      "/..%2fpackage.json",
      "/assets/..%2f..%2f..%2fpackage.json",
      "/%00",
    ]) {
      const res = await raw("GET", path);
      expect(res.body).not.toContain('"name": "inlet"');
      expect([200, 404]).toContain(res.status);
      if (res.status === 200) expect(res.body).toContain('<div id="root"></div>');
    }
  });

  test("a path starting with // is a path, not a host: the app, never a 500 nor an API route", async () => {
    for (const path of ["//%60h%3f/api", "//example.com/api/v1/auth/me"]) {
      const res = await raw("GET", path);
      expect(res.status).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
    }
    // With a file extension it is a file, and there is none: 404, as from the bucket.
    expect((await raw("GET", "//evil.example")).status).toBe(404);
  });

  test("only GET and HEAD outside /api/ (the bucket origin allows nothing else)", async () => {
    const post = await raw("POST", "/sign-in");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
    const head = await raw("HEAD", "/");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });
});
