import { ERROR_STATUS, type ErrorCode } from "../../../lib/errors";
import { REFUSAL_WORDS, refusalWords } from "../../../lib/intake/html-words";

test("a code without its own sentence gets words by its status's class", () => {
  const without = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((code) => !REFUSAL_WORDS[code] && ERROR_STATUS[code] < 500);
  expect(without).toBeDefined();
  expect(refusalWords(without as string, 403)).toMatch(/^The submission was refused/);
  expect(refusalWords("SOMETHING_NEW", 502)).toMatch(/^Something went wrong on our side/);
});
