import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A cancelled transaction's reasons come back one per item, in item order. Items are added
 * conditionally, so a position read elsewhere breaks silently when a caller adds an item: every
 * caller names its items and reads refusals by name through lib/store/transactions.ts
 * (`transact`), the one module that maps DynamoDB's positions to names.
 */
const MAPPER = "lib/store/transactions.ts";
/** `reasons[i]`, `reasons?.[i]`, `reasons.at(i)`, and the item a refusal found, read by its index. */
const POSITIONAL = /\breasons\s*(\?\.)?\s*(\[|\.at\s*\()|\bcancelledItem\s*\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** The lines of `source` that read a cancellation reason by its position. */
function positionalReads(source: string): string[] {
  return source.split("\n").filter((line) => POSITIONAL.test(line));
}

test("the pattern catches a positional read and passes a named one", () => {
  expect(positionalReads('if (reasons[checkpointAt] === "ConditionalCheckFailed") {')).toHaveLength(1);
  expect(positionalReads("const r = reasons?.[1];")).toHaveLength(1);
  expect(positionalReads("const first = reasons.at(0);")).toHaveLength(1);
  expect(positionalReads("const found = cancelledItem(error, at);")).toHaveLength(1);
  expect(positionalReads('if (cancelled?.refused("checkpoint")) {')).toEqual([]);
  expect(positionalReads('reasons.includes("TransactionConflict")')).toEqual([]);
});

test(`no module of lib/ but ${MAPPER} reads a cancelled transaction's reasons by position`, () => {
  const files = sourceFiles("lib");
  expect(files).toContain(MAPPER);
  const offenders = files
    // lib/aws/dynamodb.ts defines cancelledItem; the mapper is its one caller.
    .filter((path) => path !== MAPPER && path !== "lib/aws/dynamodb.ts")
    .flatMap((path) => positionalReads(readFileSync(path, "utf8")).map((line) => `${path}: ${line.trim()}`));
  expect(offenders).toEqual([]);
});
