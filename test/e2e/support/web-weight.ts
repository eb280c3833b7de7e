/**
 * What the dashboard's build weighs, read from `web/dist` (its index.html and Vite's manifest):
 * the JavaScript a first page load fetches, gzipped, and which chunk holds which page.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export const readManifest = (dist: string): Manifest =>
  JSON.parse(readFileSync(join(dist, ".vite", "manifest.json"), "utf8")) as Manifest;

/** The scripts index.html makes the browser fetch at once: its module script and its modulepreloads. */
export function initialScripts(dist: string): string[] {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const scripts = [...html.matchAll(/<script[^>]*\btype="module"[^>]*\bsrc="\/([^"]+)"/g)].map((m) => m[1] as string);
  const preloads = [...html.matchAll(/<link[^>]*\brel="modulepreload"[^>]*\bhref="\/([^"]+)"/g)].map((m) => m[1] as string);
  return [...scripts, ...preloads];
}

/** Bytes of `file` (under dist) once gzipped at the default level, as CloudFront and browsers see it. */
export const gzipBytes = (dist: string, file: string): number => gzipSync(readFileSync(join(dist, file))).length;

/** The files a chunk loads statically: itself and its `imports`, transitively (never its dynamic imports). */
export function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, seen);
  return seen;
}

/** The modules router.tsx loads lazily (`import("./features/…")`), as manifest keys (`src/features/….tsx`). */
export function lazyRouteModules(routerSource: string): string[] {
  const paths = [...routerSource.matchAll(/import\("\.\/([^"]+)"\)/g)].map((m) => `src/${m[1]}.tsx`);
  return [...new Set(paths)];
}
