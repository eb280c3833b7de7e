import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { ensureWebBuild } from "../../infra/web-build";
import { gzipBytes, initialScripts, lazyRouteModules, readManifest, staticClosure } from "./support/web-weight";

/**
 * Weight is a feature (docs/performance.md, "Dashboard weight"): measured on the build itself,
 * not with a timer. The sign-in page is what every visitor loads first.
 */
const BUDGET_BYTES = 150 * 1024;

const dist = ensureWebBuild();
const manifest = readManifest(dist);
const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry) ?? "missing entry";
const entry = staticClosure(manifest, entryKey);

test("the sign-in route's JavaScript (entry chunk and its modulepreloads) is at most 150 KB gzipped", () => {
  const initial = initialScripts(dist);
  // What index.html fetches is exactly the entry chunk and its static imports.
  expect(new Set(initial)).toEqual(entry);
  const sizes = Object.fromEntries(initial.map((file) => [file, gzipBytes(dist, file)]));
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  test.info().annotations.push({ type: "gzip bytes", description: `${total} (${JSON.stringify(sizes)})` });
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});

test("every lazily routed page is its own chunk, outside the entry", () => {
  const lazy = lazyRouteModules(readFileSync(join(dist, "..", "src", "router.tsx"), "utf8"));
  expect(lazy.length).toBeGreaterThanOrEqual(6);
  for (const module of lazy) {
    const chunk = manifest[module];
    expect(chunk, `${module} has a chunk of its own`).toMatchObject({ isDynamicEntry: true });
    expect(entry.has(chunk?.file ?? ""), `${module} is not loaded with the entry`).toBe(false);
  }
  // The pages behind sign-in are not even statically reachable from the entry.
  const entrySources = [...entry].join(" ");
  for (const page of ["home", "sources-page", "inbox-page", "submission-page"]) expect(entrySources).not.toContain(page);
});
