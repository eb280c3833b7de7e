import { parseContentType } from "../../../lib/intake/charset";
import { normalizeSubmission } from "../../../lib/intake/fields";
import { parseMultipart } from "../../../lib/intake/form-body";
import { charLength, isForbiddenName } from "../../../lib/intake/text";
import { takeCaptchaTokens } from "../../../lib/spam/captcha";
import { code } from "../../support/app-error";

describe("normalizeSubmission", () => {
  const json = (value: unknown) => normalizeSubmission({ json: value, droppedFiles: [] });
  const form = (entries: [string, string][]) => normalizeSubmission({ entries, droppedFiles: [] });

  test("forbidden names are dropped wherever they appear and listed once", () => {
    const parsed = JSON.parse(
      '{"__proto__":{"x":1},"a":{"constructor":{"y":1},"ok":"1"},"b__prototype":"p","c[constructor]":"q","constructor_name":"kept","_x":"c"}',
    );
    const out = json(parsed);
    expect({ ...out.data }).toEqual({ "a.ok": "1", constructor_name: "kept" });
    expect(out.ignoredFields).toEqual(["__proto__", "a.constructor", "b__prototype", "c[constructor]"]);
    expect(Object.getPrototypeOf(out.data)).toBeNull();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  test("isForbiddenName", () => {
    for (const name of [
      "__proto__",
      "a.__proto__",
      "x__proto__y",
      "constructor",
      "a.constructor",
      "a__prototype",
      "a[prototype]",
      "prototype.b",
    ]) {
      expect([name, isForbiddenName(name)]).toEqual([name, true]);
    }
    for (const name of ["proto", "constructors", "my_prototype", "prototype_id", "constructor name", "_proto_"]) {
      expect([name, isForbiddenName(name)]).toEqual([name, false]);
    }
  });

  test("limits count characters (code points), not bytes or UTF-16 units", () => {
    expect(charLength("🎉é a")).toBe(4);
    expect(charLength("\uD800x")).toBe(2);
    expect(() => form([["n", "🎉".repeat(10_000)]])).not.toThrow();
    expect(code(() => form([["n", "🎉".repeat(10_001)]]))).toBe("FIELD_VALUE_TOO_LONG");
    expect(code(() => form([["名".repeat(101), "x"]]))).toBe("FIELD_NAME_TOO_LONG");
    // Counted after a__b → a.b and name[] → name.
    expect(() => form([[`${"a".repeat(100)}[]`, "x"]])).not.toThrow();
  });

  test("lists: repeated keys, name[] (even once), JSON arrays; at most 100 values", () => {
    const out = form([
      ["a", "1"],
      ["a", "2"],
      ["b[]", "x"],
      ["c", "only"],
    ]);
    expect({ ...out.data }).toEqual({ a: ["1", "2"], b: ["x"], c: "only" });
    expect({ ...json({ l: [1, "two", null, false] }).data }).toEqual({ l: ["1", "two", "", "false"] });
    expect(code(() => form(Array.from({ length: 101 }, (_, i): [string, string] => ["a", String(i)])))).toBe("TOO_MANY_FIELDS");
  });

  test("control fields: the first value wins, names are case-insensitive, never data", () => {
    const out = form([
      ["_REDIRECT", "https://a.example/"],
      ["_redirect", "https://b.example/"],
      ["_hp", ""],
      ["name", "x"],
    ]);
    expect({ ...out.controls }).toEqual({ redirect: "https://a.example/", hp: "" });
    expect({ ...out.data }).toEqual({ name: "x" });
  });

  test("the ads payload: mapped by column_id, system fields to metadata, secret never stored, in any spelling", () => {
    for (const field of ["google_key", "Google_key", "partner_key", "GOOGLE_KEY"]) {
      const out = json({
        lead_id: "L1",
        campaign_id: "9007199254740993",
        is_test: true,
        [field]: "s3cret",
        user_column_data: [
          { column_id: "EMAIL", column_name: "User Email", string_value: "a@example.com" },
          { column_id: "work_email", string_value: "w@example.com" },
        ],
      });
      expect(out.ads).toMatchObject({
        key: "s3cret",
        leadId: "L1",
        isTest: true,
        metadata: { lead_id: "L1", campaign_id: "9007199254740993", is_test: true },
      });
      expect({ ...out.data }).toEqual({ email: "a@example.com", work_email: "w@example.com" });
      expect({ ...out.ads?.types }).toEqual({ email: "email", work_email: "email" });
      expect({ ...out.ads?.labels }).toEqual({ email: "User Email", work_email: "Work email" });
    }
  });

  test("what is stored stays under DynamoDB's item limit: listed names capped at 50, labels at 255, lone surrogates replaced", () => {
    const ignored = json({ ok: "1", ...Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`a${i}`, { constructor: 1 }])) });
    expect(ignored.ignoredFields).toHaveLength(50);
    const files = Array.from(
      { length: 80 },
      (_, i) => `--b\r\nContent-Disposition: form-data; name="file${i}"; filename="x"\r\n\r\nx\r\n`,
    ).join("");
    expect(
      parseMultipart(Buffer.from(`${files}--b--`), parseContentType("multipart/form-data; boundary=b")).droppedFiles,
    ).toHaveLength(50);
    const ads = json({ user_column_data: [{ column_id: "Q", column_name: "L".repeat(300), string_value: "v" }] });
    expect(ads.ads?.labels.q).toHaveLength(255);
    const lone = json(JSON.parse('{"a\\ud800":"x\\udc00y","ok":"🎉"}'));
    expect({ ...lone.data }).toEqual({ "a\uFFFD": "x\uFFFDy", ok: "🎉" });
  });

  test("a JSON body that is not an object is INVALID_BODY; an empty one NO_DATA_FIELDS", () => {
    expect(code(() => json([1]))).toBe("INVALID_BODY");
    expect(code(() => json("x"))).toBe("INVALID_BODY");
    expect(code(() => json({}))).toBe("NO_DATA_FIELDS");
    expect(code(() => json({ data: {}, other: "ignored" }))).toBe("NO_DATA_FIELDS");
    expect(code(() => json({ _redirect: "x" }))).toBe("NO_DATA_FIELDS");
  });
});

describe("captcha tokens in JSON bodies", () => {
  test("a token beside a `data` object is read, and never stored as data", () => {
    const submission = normalizeSubmission({
      json: { data: { email: "ada@example.com" }, "g-recaptcha-response": "tok-1", _redirect: "https://x.test/" },
      droppedFiles: [],
    });
    expect(takeCaptchaTokens(submission.data)).toEqual({ "g-recaptcha-response": "tok-1" });
    expect(submission.data).toEqual({ email: "ada@example.com" });
    expect(submission.controls.redirect).toBe("https://x.test/");
  });

  test("other top-level keys beside `data` are still ignored", () => {
    const submission = normalizeSubmission({ json: { data: { a: "1" }, other: "x" }, droppedFiles: [] });
    expect(submission.data).toEqual({ a: "1" });
  });
});

describe("characters the queue cannot carry", () => {
  test("U+FFFE, U+FFFF and lone surrogates are stored as U+FFFD", () => {
    const submission = normalizeSubmission({ json: { note: "a\uFFFEb\uFFFFc\uD800d" }, droppedFiles: [] });
    expect(submission.data.note).toBe("a\uFFFDb\uFFFDc\uFFFDd");
  });
});
