import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureWebBuild, webBuildIsStale, webDist } from "../../../infra/web-build";

let root: string;

/** Writes `path` under the temp root with its modification time `secondsAgo` seconds in the past. */
function file(path: string, secondsAgo: number): void {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, "x");
  const time = Date.now() / 1000 - secondsAgo;
  utimesSync(full, time, time);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "inlet-web-build-"));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("webBuildIsStale", () => {
  test("without web/dist/index.html the build is stale", () => {
    file("web/src/main.tsx", 100);
    expect(webBuildIsStale(root)).toBe(true);
    file("web/dist/assets/app-1.js", 10);
    expect(webBuildIsStale(root)).toBe(true);
  });

  test("a build newer than every source is fresh; one source edited after it makes it stale", () => {
    file("web/src/features/inbox/page.tsx", 300);
    file("web/vite.config.ts", 200);
    file("web/dist/index.html", 100);
    expect(webBuildIsStale(root)).toBe(false);
    file("web/src/features/inbox/page.tsx", 50);
    expect(webBuildIsStale(root)).toBe(true);
  });

  test("files under web/dist and node_modules are outputs, not sources", () => {
    file("web/src/main.tsx", 300);
    file("web/dist/index.html", 100);
    file("web/dist/assets/app-2.js", 10);
    file("web/node_modules/.vite/deps/react.js", 10);
    file("web/src/node_modules/x.js", 10);
    expect(webBuildIsStale(root)).toBe(false);
    // A folder named dist below web/ is a source folder like any other.
    file("web/src/dist/helper.ts", 10);
    expect(webBuildIsStale(root)).toBe(true);
  });
});

describe("ensureWebBuild", () => {
  test("returns web/dist without building when the build is fresh", () => {
    file("web/src/main.tsx", 200);
    file("web/dist/index.html", 100);
    file("docs/openapi.json", 10);
    // No vite and no config under this root: a build attempt would fail.
    expect(ensureWebBuild(root)).toBe(join(root, "web", "dist"));
    expect(webDist(root)).toBe(join(root, "web", "dist"));
  });

  test("puts the OpenAPI document where the API serves it from, again whenever it changed, built or not", () => {
    file("web/src/main.tsx", 200);
    file("web/dist/index.html", 100);
    mkdirSync(join(root, "docs"), { recursive: true });
    writeFileSync(join(root, "docs/openapi.json"), '{"openapi":"3.1.0"}');
    const served = join(root, "web/dist/api/v1/openapi.json");
    ensureWebBuild(root);
    expect(readFileSync(served, "utf8")).toBe('{"openapi":"3.1.0"}');
    writeFileSync(join(root, "docs/openapi.json"), '{"openapi":"3.1.1"}');
    ensureWebBuild(root);
    expect(readFileSync(served, "utf8")).toBe('{"openapi":"3.1.1"}');
    // The dashboard was not rebuilt for it (no Vite here): only the document moved.
    expect(webBuildIsStale(root)).toBe(false);
  });

  test("a build without the generated document is refused, naming the command that makes it", () => {
    file("web/src/main.tsx", 200);
    file("web/dist/index.html", 100);
    expect(() => ensureWebBuild(root)).toThrow(/docs\/openapi\.json does not exist: run npm run openapi/);
  });

  test("says what is missing when a stale build has no Vite config to build with", () => {
    file("web/src/main.tsx", 10);
    expect(() => ensureWebBuild(root)).toThrow(/web\/vite\.config\.ts does not exist/);
  });
});
