import { linesMatching } from "../../support/source-lines";

/**
 * A cancelled transaction's reasons come back one per item, in item order. Items are added
 * conditionally, so a position read elsewhere breaks silently when a caller adds an item: every
 * caller names its items and reads refusals by name through lib/store/transactions.ts
 * (`transact`), the one module that maps DynamoDB's positions to names.
 */
const MAPPER = "lib/store/transactions.ts";
/** `reasons[i]`, `reasons?.[i]`, `reasons.at(i)`, and the item a refusal found, read by its index. */
const POSITIONAL = /\breasons\s*(\?\.)?\s*(\[|\.at\s*\()|\bcancelledItem\s*\(/;

test("the pattern catches a positional read and passes a named one", () => {
  expect(POSITIONAL.test('if (reasons[checkpointAt] === "ConditionalCheckFailed") {')).toBe(true);
  expect(POSITIONAL.test("const r = reasons?.[1];")).toBe(true);
  expect(POSITIONAL.test("const first = reasons.at(0);")).toBe(true);
  expect(POSITIONAL.test("const found = cancelledItem(error, at);")).toBe(true);
  expect(POSITIONAL.test('if (cancelled?.refused("checkpoint")) {')).toBe(false);
  expect(POSITIONAL.test('reasons.includes("TransactionConflict")')).toBe(false);
});

test(`no module of lib/ but ${MAPPER} reads a cancelled transaction's reasons by position`, () => {
  // lib/aws/dynamodb.ts defines cancelledItem; the mapper is its one caller.
  expect(linesMatching("lib", POSITIONAL, [MAPPER, "lib/aws/dynamodb.ts"])).toEqual([]);
});
