/**
 * The dashboard's production build (`web/dist`, made by Vite), made when it is missing or older
 * than its sources. `cdk synth` (infra/app.ts) deploys that folder and `npm start` serves it, so
 * both call `ensureWebBuild`; it uses only node: modules, so the local tools can load it without
 * the CDK. The build also carries the API's OpenAPI document, which CloudFront serves from the
 * same bucket (infra/web-headers.ts, OPENAPI_DOCUMENT_PATH).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { OPENAPI_DOCUMENT_PATH } from "./web-headers";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The newest modification time (ms) of any file under `dir`, skipping web/dist and installs; 0 if none. */
function newestSource(dir: string, top: boolean): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || (top && entry.name === "dist")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path, false));
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The folder Vite builds into. */
export const webDist = (root: string = REPO_ROOT): string => join(root, "web", "dist");

/**
 * True when `web/dist/index.html` is missing, or older than the newest file under `web/`
 * (web/dist and node_modules excluded). Pure apart from reading the file system.
 */
export function webBuildIsStale(root: string = REPO_ROOT): boolean {
  const index = join(webDist(root), "index.html");
  if (!existsSync(index)) return true;
  const web = join(root, "web");
  return newestSource(web, true) > statSync(index).mtimeMs;
}

/** The generated OpenAPI document (`npm run openapi`). */
export const openApiDocument = (root: string = REPO_ROOT): string => join(root, "docs", "openapi.json");

/**
 * Puts docs/openapi.json into the build at the path the API serves it from
 * (`web/dist/api/v1/openapi.json`), where the bucket deployment picks it up. Copied whenever it
 * differs, whether or not the dashboard was rebuilt: the document changes with the routes, not
 * with web/.
 */
export function placeOpenApiDocument(root: string = REPO_ROOT): string {
  const source = openApiDocument(root);
  if (!existsSync(source)) throw new Error(`${source} does not exist: run npm run openapi`);
  const target = join(webDist(root), ...OPENAPI_DOCUMENT_PATH.split("/"));
  if (!existsSync(target) || !readFileSync(target).equals(readFileSync(source))) {
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(source, target);
  }
  return target;
}

/**
 * Builds the dashboard when `webBuildIsStale`, synchronously (Vite's output goes to stderr, so a
 * caller's stdout, such as `cdk synth`'s template, stays clean), puts the OpenAPI document in it,
 * and returns the dist folder.
 */
export function ensureWebBuild(root: string = REPO_ROOT): string {
  const dist = webDist(root);
  if (!webBuildIsStale(root)) {
    placeOpenApiDocument(root);
    return dist;
  }
  const vite = join(root, "node_modules", ".bin", "vite");
  const config = join("web", "vite.config.ts");
  if (!existsSync(join(root, config))) {
    throw new Error(`The dashboard cannot be built: ${join(root, config)} does not exist`);
  }
  process.stderr.write(`Building the dashboard (${config}) into ${dist}\n`);
  // Always the production build: a caller's NODE_ENV (jest sets `test`) would otherwise make Vite
  // bundle React's development build, three times the weight.
  execFileSync(vite, ["build", "--config", config], {
    cwd: root,
    stdio: ["ignore", 2, 2],
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (!existsSync(join(dist, "index.html"))) {
    throw new Error(`vite build finished without ${join(dist, "index.html")}: check build.outDir in ${config}`);
  }
  placeOpenApiDocument(root);
  return dist;
}
