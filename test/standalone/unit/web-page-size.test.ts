import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { lazyRouteModules } from "../../e2e/support/web-weight";

/**
 * No page of the dashboard passes 200 lines (docs/dashboard.md, "Quality bars"): a page is read
 * whole by whoever changes it, so a longer one is split into parts of its feature. A page is a
 * module the router mounts (router.tsx imports it, at once or lazily) or a `*-page.tsx`, which
 * is what app/ composes from a feature.
 */
const MAX_PAGE_LINES = 200;
const WEB = "web/src";

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

function pages(): string[] {
  const router = readFileSync(join(WEB, "router.tsx"), "utf8");
  const mounted = [
    ...[...router.matchAll(/from "\.\/((?:app|features)\/[^"]+)"/g)].map((m) => `src/${m[1]}.tsx`),
    ...lazyRouteModules(router),
  ].map((key) => join("web", key));
  const named = files(WEB).filter((path) => path.endsWith("-page.tsx"));
  return [...new Set([...mounted, ...named])].sort();
}

const lineCount = (path: string) => readFileSync(path, "utf8").replace(/\n$/, "").split("\n").length;

test(`no page of the dashboard is over ${MAX_PAGE_LINES} lines`, () => {
  const found = pages();
  // The router's pages and the features' pages were found (a moved router would list none).
  expect(found).toEqual(expect.arrayContaining(["web/src/app/home-page.tsx", "web/src/features/auth/sign-in.tsx"]));
  const over = found.filter((path) => lineCount(path) > MAX_PAGE_LINES).map((path) => `${path}: ${lineCount(path)} lines`);
  expect(over).toEqual([]);
});
