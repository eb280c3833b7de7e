import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Every file under `dir` whose name matches `name`, recursively. */
export function sourceFiles(dir: string, name = /\.tsx?$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, name);
    return name.test(entry.name) ? [path] : [];
  });
}

/**
 * The lines of the source under `dir` (`path: line`) that match `pattern`, outside the files
 * `allowed` (each of which must exist, so a moved module cannot make the check pass empty).
 * For the seams a lint rule cannot see: a call written where only one module may write it.
 */
export function linesMatching(dir: string, pattern: RegExp, allowed: readonly string[]): string[] {
  const files = sourceFiles(dir);
  for (const path of allowed) if (!files.includes(path)) throw new Error(`${path} is not under ${dir}`);
  return files
    .filter((path) => !allowed.includes(path))
    .flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => pattern.test(line))
        .map((line) => `${path}: ${line.trim()}`),
    );
}
