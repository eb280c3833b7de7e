import fc from "fast-check";
import { parseIntakeBody, parseJsonExact } from "../../../lib/intake/body";
import { asyncCode, code } from "../../support/app-error";

describe("parseJsonExact", () => {
  test("integers of 16 digits or more arrive as exact strings; everything else parses as JSON.parse does", () => {
    expect(parseJsonExact('{"a":7100000001234567891,"b":-9223372036854775808,"c":18446744073709551615}')).toEqual({
      a: "7100000001234567891",
      b: "-9223372036854775808",
      c: "18446744073709551615",
    });
    expect(parseJsonExact('{"small":123456789012345,"neg":-5,"f":1.5,"e":1e21,"big_float":12345678901234567890.5}')).toEqual({
      small: 123456789012345,
      neg: -5,
      f: 1.5,
      e: 1e21,
      // biome-ignore lint/correctness/noPrecisionLoss: a float too precise for a double is what this case sends
      big_float: 12345678901234567890.5,
    });
    expect(parseJsonExact('[9007199254740993, "9007199254740993", true, null]')).toEqual([
      "9007199254740993",
      "9007199254740993",
      true,
      null,
    ]);
  });

  test("digits inside strings, escaped quotes included, are never touched", () => {
    const text = '{"s":"id \\"12345678901234567890\\" here","t":"\\\\","n":12345678901234567890}';
    expect(parseJsonExact(text)).toEqual({ s: 'id "12345678901234567890" here', t: "\\", n: "12345678901234567890" });
  });

  test("quoting never turns invalid JSON into valid JSON", () => {
    for (const text of [
      '{"a":00000000000000000001}',
      '{"a":-01234567890123456}',
      "12345678901234567890 1",
      '{"a":1234567890123456789x}',
    ]) {
      expect(() => parseJsonExact(text)).toThrow();
    }
  });

  test("nesting past 32 levels is INVALID_BODY, before anything recurses over it", () => {
    expect(parseJsonExact(`${"[".repeat(32)}${"]".repeat(32)}`)).toBeDefined();
    expect(code(() => parseJsonExact(`${"[".repeat(33)}${"]".repeat(33)}`))).toBe("INVALID_BODY");
    expect(code(() => parseJsonExact(`${"[".repeat(200_000)}${"]".repeat(200_000)}`))).toBe("INVALID_BODY");
    // Brackets inside strings do not count.
    expect(parseJsonExact(`{"a":"${"[".repeat(100)}"}`)).toEqual({ a: "[".repeat(100) });
  });

  test("agrees with JSON.parse on every JSON document without big integers", () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 6 }), (text) => {
        const big = /(?<![\d.eE+-])-?[1-9]\d{15,}(?![\d.eE])/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'));
        fc.pre(!big);
        expect(parseJsonExact(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe("parseIntakeBody", () => {
  const b64 = (s: string | Buffer) => Buffer.from(s).toString("base64");

  test("415 for other types and unknown charsets, before the size (413) and the body (400)", async () => {
    expect(await asyncCode(parseIntakeBody("x".repeat(300_000), false, "text/plain"))).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(await asyncCode(parseIntakeBody("{", false, "application/json; charset=klingon"))).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(await asyncCode(parseIntakeBody(undefined, false, undefined))).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(await asyncCode(parseIntakeBody(b64("x".repeat(300_000)), true, "application/x-www-form-urlencoded"))).toBe(
      "PAYLOAD_TOO_LARGE",
    );
    expect(await asyncCode(parseIntakeBody("{", false, "application/json"))).toBe("INVALID_BODY");
    expect(await asyncCode(parseIntakeBody(" ", false, "application/json"))).toBe("NO_DATA_FIELDS");
    expect(await parseIntakeBody('{"a":1}', false, "application/problem+json")).toEqual({ json: { a: 1 }, droppedFiles: [] });
  });

  test("JSON text from the gateway is taken as it is; base64 JSON is decoded in its charset", async () => {
    expect((await parseIntakeBody('{"n":"Zoë"}', false, "application/json; charset=iso-8859-1")).json).toEqual({ n: "Zoë" });
    const latin1 = Buffer.from('{"n":"Zo\u00eb"}', "latin1");
    expect((await parseIntakeBody(latin1.toString("base64"), true, "application/json; charset=iso-8859-1")).json).toEqual({
      n: "Zoë",
    });
    expect(await asyncCode(parseIntakeBody(latin1.toString("base64"), true, "application/json"))).toBe("INVALID_BODY");
    expect(
      (await parseIntakeBody(b64(Buffer.from('\uFEFF{"a":"b"}', "utf16le")), true, "application/json; charset=utf-16le")).json,
    ).toEqual({ a: "b" });
  });

  test("urlencoded as the URL standard parses it: + is a space, a stray % stays, a name without = has an empty value", async () => {
    const parsed = await parseIntakeBody(
      b64("a=1+2&b=%zz%&c&&d=%2B%26%3D&=x&e=%E2%82%AC"),
      true,
      "application/x-www-form-urlencoded",
    );
    expect(parsed.entries).toEqual([
      ["a", "1 2"],
      ["b", "%zz%"],
      ["c", ""],
      ["d", "+&="],
      ["", "x"],
      ["e", "€"],
    ]);
  });

  test("urlencoded charsets: declared, named by _charset_, else UTF-8 falling back to Windows-1252", async () => {
    const form = (body: string, type = "application/x-www-form-urlencoded") => parseIntakeBody(b64(body), true, type);
    expect((await form("n=%E9%80", "application/x-www-form-urlencoded; charset=windows-1252")).entries).toEqual([["n", "é€"]]);
    expect((await form("n=%E9%80")).entries).toEqual([["n", "é€"]]);
    expect((await form("n=%C3%A9")).entries).toEqual([["n", "é"]]);
    expect((await form("_charset_=shift_jis&n=%93%FA%96%7B")).entries).toEqual([
      ["_charset_", "shift_jis"],
      ["n", "日本"],
    ]);
    // A declared charset is held to: bytes invalid in it are 400, never guessed.
    expect(await asyncCode(form("n=%E9", "application/x-www-form-urlencoded; charset=utf-8"))).toBe("INVALID_BODY");
    expect(await asyncCode(form("n=x", 'application/x-www-form-urlencoded; charset="klingon"'))).toBe("UNSUPPORTED_MEDIA_TYPE");
  });
});
