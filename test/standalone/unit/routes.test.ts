import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { BOOKKEEPER, DIGESTS, EMAIL_EVENTS, QUEUE_CONSUMER, ROUTES } from "../../../functions/routes";

function handlerFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return handlerFiles(path);
    return name.endsWith(".ts") && name !== "routes.ts" ? [relative("functions", path).replace(/\.ts$/, "")] : [];
  });
}

// Not checked here, since it needs the gateway: session-only routes never take an API key
// (test/local-stack/http/api-keys-access.test.ts sends one to each).
describe("the route table", () => {
  test("every handler file under functions/ is in the table, and every entry has its file", () => {
    const files = handlerFiles("functions").sort();
    // The intake queue's consumer, the SES events' function, the bookkeeper and the digest run are declared next to the routes (they have no route key).
    const declared = [
      ...ROUTES.map((r) => r.handler as string),
      QUEUE_CONSUMER.handler,
      EMAIL_EVENTS.handler,
      BOOKKEEPER.handler,
      DIGESTS.handler,
    ].sort();
    expect(declared).toEqual(files);
  });

  test("route keys are unique, API Gateway formatted and versioned", () => {
    const keys = ROUTES.map((r) => r.route as string);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) {
      if (key === "$default") continue;
      expect(key).toMatch(/^(GET|POST|PUT|DELETE|PATCH|OPTIONS) \/api\/v1(\/[a-z0-9.-]+|\/\{[A-Za-z]+\})+$/);
    }
  });

  test("every handler exports a handler built for its own route key", () => {
    for (const route of ROUTES) {
      const source = readFileSync(join("functions", `${route.handler}.ts`), "utf8");
      expect(source).toContain(`"${route.route}"`);
    }
  });

  test("routes that change data are not read-only", () => {
    // POST only to carry a secret in the body, never in a URL; it reads and writes nothing else.
    const readingPosts = ["POST /api/v1/auth/email-links/describe"];
    for (const route of ROUTES) {
      if (readingPosts.includes(route.route)) {
        expect([route.route, route.table]).toEqual([route.route, "read"]);
      } else if (route.route.startsWith("POST") || route.route.startsWith("PUT") || route.route.startsWith("DELETE")) {
        expect(route.table).toBe("write");
      }
    }
  });

  test("docs/api.md lists every route", () => {
    const doc = readFileSync("docs/api.md", "utf8");
    for (const route of ROUTES) {
      if (route.route === "$default") continue;
      const [method, path] = route.route.split(" ");
      expect(doc).toContain(`${method} ${(path as string).replace(/^\/api/, "")}`);
    }
  });
});
