/**
 * The dashboard's production build (`web/dist`, made by Vite), made when it is missing or older
 * than its sources. `cdk synth` (infra/app.ts) deploys that folder and `npm start` serves it, so
 * both call `ensureWebBuild`; it uses only node: modules, so the local tools can load it without
 * the CDK.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

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

/**
 * Builds the dashboard when `webBuildIsStale`, synchronously (Vite's output goes to stderr, so a
 * caller's stdout, such as `cdk synth`'s template, stays clean), and returns the dist folder.
 */
export function ensureWebBuild(root: string = REPO_ROOT): string {
  const dist = webDist(root);
  if (!webBuildIsStale(root)) return dist;
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
  return dist;
}
