import { linesMatching } from "../../support/source-lines";

/**
 * The store answers an expected refusal in one vocabulary (lib/store/outcomes.ts): a store
 * function declares its answers as `Outcome<...>`, so tsc refuses a word the vocabulary does not
 * list. A bare word in a signature (`Promise<Form | "CONFLICT">`) escapes that check.
 */
const STORE = "lib/store";
/** A word of capitals as one member of a union in a line that names no `Outcome<`. */
const BARE_WORD = /(\|\s*"[A-Z][A-Z_]+"|"[A-Z][A-Z_]+"\s*\|)/;
const declaresBareWord = (line: string) => BARE_WORD.test(line) && !line.includes("Outcome<");

test("the check catches a bare word and passes a declared one", () => {
  expect(declaresBareWord('): Promise<Site | "CONFLICT" | undefined> {')).toBe(true);
  expect(declaresBareWord('): Promise<"OK" | "CONFLICT"> {')).toBe(true);
  expect(declaresBareWord('): Promise<Site | Outcome<"CONFLICT"> | undefined> {')).toBe(false);
  expect(declaresBareWord('  apiKey: (keyId: string): Key => ({ pk: keyId, sk: "APIKEY" }),')).toBe(false);
});

test(`every answer word of ${STORE} is declared as an Outcome`, () => {
  // The vocabulary's own module names its words.
  const lines = linesMatching(STORE, BARE_WORD, ["lib/store/outcomes.ts"]).filter((line) => !line.includes("Outcome<"));
  expect(lines).toEqual([]);
});
