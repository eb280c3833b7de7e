import { decodeCursorValue, encodeCursorValue } from "../../../lib/cursor";
import { linesMatching } from "../../support/source-lines";

/** lib/cursor.ts is the one codec of the cursors Inlet answers; each user checks what it holds. */

test("a cursor is the base64url of its JSON object, and decodes to it", () => {
  const cursor = encodeCursorValue({ formId: "form_1", key: "a+b/c=" });
  expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(decodeCursorValue(cursor)).toEqual({ formId: "form_1", key: "a+b/c=" });
});

test("what is not base64url JSON of an object decodes to nothing", () => {
  const of = (text: string) => Buffer.from(text).toString("base64url");
  expect(decodeCursorValue("")).toBeUndefined();
  expect(decodeCursorValue("not a cursor!")).toBeUndefined();
  expect(decodeCursorValue(of("{"))).toBeUndefined();
  expect(decodeCursorValue(of("null"))).toBeUndefined();
  expect(decodeCursorValue(of("[1,2]"))).toBeUndefined();
  expect(decodeCursorValue(of('"text"'))).toBeUndefined();
  expect(decodeCursorValue(of("42"))).toBeUndefined();
});

test("no module of lib/ but lib/cursor.ts codes a cursor by hand", () => {
  const byHand = /Buffer\.from\(\s*JSON\.stringify|JSON\.parse\(\s*Buffer\.from\(/;
  expect(linesMatching("lib", byHand, ["lib/cursor.ts"])).toEqual([]);
});
