import busboy from "busboy";
import fc from "fast-check";
import { AppError } from "../../../lib/errors";
import { parseIntakeBody, parseJsonExact } from "../../../lib/intake/body";
import { parseContentType } from "../../../lib/intake/charset";
import { normalizeSubmission } from "../../../lib/intake/fields";
import { parseMultipart } from "../../../lib/intake/form-body";
import { inferFieldType, labelFromKey, mapToForm } from "../../../lib/intake/mapping";
import { redirectTarget, validateRedirect } from "../../../lib/intake/redirect";
import { charLength, isForbiddenName } from "../../../lib/intake/text";
import type { Form } from "../../../lib/store/forms";

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : `not an AppError: ${String(error)}`;
  }
  return "no error";
};
const asyncCode = async (promise: Promise<unknown>) =>
  promise.then(
    () => "no error",
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );

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

describe("the multipart parser", () => {
  const type = (boundary: string) => parseContentType(`multipart/form-data; boundary=${boundary}`);
  const parse = (body: string | Buffer, boundary = "b") => parseMultipart(Buffer.from(body as string, "latin1"), type(boundary));

  test("preamble, transport padding, epilogue, quoted boundaries, folded headers", () => {
    const body =
      'preamble\r\n--b \t\r\nContent-Disposition: form-data;\r\n name="a"\r\n\r\n1\r\n' +
      '--b\r\ncontent-disposition: FORM-DATA; name="b\\"q"\r\n\r\n2\r\n--b--\r\nepilogue';
    expect(parse(body)).toEqual({
      entries: [
        ["a", "1"],
        ['b"q', "2"],
      ],
      droppedFiles: [],
    });
    expect(
      parseMultipart(
        Buffer.from('--x y\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x y--'),
        parseContentType('multipart/form-data; boundary="x y"'),
      ),
    ).toEqual({
      entries: [["a", "1"]],
      droppedFiles: [],
    });
  });

  test("files are dropped (filename, filename*, or application/octet-stream) and named once; an empty file input is no file", () => {
    const part = (headers: string, content = "x") => `--b\r\n${headers}\r\n\r\n${content}\r\n`;
    const body =
      part('Content-Disposition: form-data; name="text"') +
      part('Content-Disposition: form-data; name="cv"; filename="cv.pdf"\r\nContent-Type: application/pdf', "%PDF") +
      part("Content-Disposition: form-data; name=\"cv\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf") +
      part('Content-Disposition: form-data; name="blob"\r\nContent-Type: application/octet-stream', "\u0000\u0001") +
      part('Content-Disposition: form-data; name="empty"; filename=""\r\nContent-Type: application/octet-stream', "") +
      part("Content-Disposition: form-data") +
      part('Content-Disposition: attachment; name="not-form-data"') +
      part("Content-Type: text/plain") +
      "--b--\r\n";
    expect(parse(body)).toEqual({ entries: [["text", "x"]], droppedFiles: ["cv", "blob"] });
  });

  test("a truncated or boundary-less body is INVALID_BODY; no boundary parameter is INVALID_BODY", () => {
    expect(code(() => parse('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue'))).toBe("INVALID_BODY");
    expect(code(() => parse('--b\r\nContent-Disposition: form-data; name="a"'))).toBe("INVALID_BODY");
    expect(code(() => parse("--b"))).toBe("INVALID_BODY");
    expect(code(() => parse("no boundary here"))).toBe("INVALID_BODY");
    expect(code(() => parseMultipart(Buffer.from("--b--"), parseContentType("multipart/form-data")))).toBe("INVALID_BODY");
    expect(parse("--b--\r\n")).toEqual({ entries: [], droppedFiles: [] });
  });

  test("a part's declared charset applies to it; undeclared text falls back together", () => {
    const body = Buffer.concat([
      Buffer.from(
        '--b\r\nContent-Disposition: form-data; name="jp"\r\nContent-Type: text/plain; charset=shift_jis\r\n\r\n',
        "latin1",
      ),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b]),
      Buffer.from('\r\n--b\r\nContent-Disposition: form-data; name="latin"\r\n\r\n', "latin1"),
      Buffer.from([0x80, 0xe9]),
      Buffer.from("\r\n--b--", "latin1"),
    ]);
    expect(parse(body)).toEqual({
      entries: [
        ["jp", "日本"],
        ["latin", "€é"],
      ],
      droppedFiles: [],
    });
  });

  test("agrees with busboy on every well-formed UTF-8 body", async () => {
    const text = fc
      .string({ unit: "grapheme", maxLength: 30 })
      .filter((s) => !s.includes("\r") && !s.includes("\n") && !s.includes('"') && !s.includes("\\"));
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            text.filter((s) => s !== ""),
            fc.string({ unit: "grapheme", maxLength: 80 }),
          ),
          { maxLength: 8 },
        ),
        async (fields) => {
          const boundary = "----WebKitFormBoundaryAbCdEfGhIjKlMnOp";
          const body = Buffer.concat([
            ...fields.map(([k, v]) =>
              Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
            ),
            Buffer.from(`--${boundary}--\r\n`),
          ]);
          fc.pre(fields.every(([k, v]) => !k.includes(boundary) && !v.includes(boundary)));
          const theirs = await new Promise<[string, string][]>((resolve, reject) => {
            const out: [string, string][] = [];
            const parser = busboy({
              headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
              defParamCharset: "utf8",
            });
            parser.on("field", (name, value) => out.push([name, value]));
            parser.on("error", reject);
            parser.on("close", () => resolve(out));
            parser.end(body);
          });
          expect(parseMultipart(body, type(boundary)).entries).toEqual(theirs);
        },
      ),
      { numRuns: 200 },
    );
  });
});

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

describe("inferFieldType", () => {
  test.each([
    ["email", "a@b.co", "email"],
    ["contact", "a@b.co", "email"],
    ["e-mail", "", "email"],
    ["phone", "+1 (555) 010-0199", "phone"],
    ["mobile_number", "07700 900123", "phone"],
    ["tel", "", "phone"],
    ["hotel", "Ritz", "text"],
    ["name", "Ada", "name"],
    ["first_name", "Ada", "name"],
    ["Last Name", "Lovelace", "name"],
    ["contact.full-name", "Ada L", "name"],
    ["company_name", "Acme", "text"],
    ["username", "ada", "text"],
    ["website", "https://example.com", "url"],
    ["when", "2026-11-21", "date"],
    ["at", "2026-11-21T10:15:30Z", "date"],
    ["age", "36", "number"],
    ["zip", "90210", "text"],
    ["message", "hi", "textarea"],
    ["notes", "line\nline", "textarea"],
    ["long", "x".repeat(201), "textarea"],
    ["topics", ["a", "b"], "select"],
    ["one", ["a"], "text"],
    ["city", "London", "text"],
  ])("%s = %j is %s", (key, value, type) => {
    expect(inferFieldType(key, value as string | string[])).toBe(type);
  });

  test("labelFromKey", () => {
    expect(labelFromKey("first_name")).toBe("First name");
    expect(labelFromKey("address.city")).toBe("Address city");
    expect(labelFromKey("utmSource")).toBe("Utm source");
  });
});

describe("mapToForm", () => {
  const builder = (fields: Form["fields"]): Pick<Form, "fields" | "origin"> => ({ fields, origin: "builder" });
  const field = (label: string, type: Form["fields"][string]["type"], order: number) => ({ label, type, required: false, order });

  test("by key, then loose key or label, then type; unmatched keys kept and, for a builder form, not added", () => {
    const form = builder({
      email: field("Email", "email", 1),
      full_name: field("Your full name", "name", 2),
      phone: field("Phone", "phone", 3),
      notes: field("Notes", "textarea", 4),
    });
    const out = mapToForm(form, {
      "Your Full-Name": "Ada",
      reach_me: "ada@example.com",
      cell: "+44 20 7946 0958",
      NOTES: "hi",
      utm: "x",
    });
    expect({ ...out.data }).toEqual({
      full_name: "Ada",
      email: "ada@example.com",
      phone: "+44 20 7946 0958",
      notes: "hi",
      utm: "x",
    });
    expect(out.fieldsMapped.sort()).toEqual(["email", "full_name", "notes", "phone"]);
    expect({ ...out.newFields }).toEqual({});
  });

  test("each field takes one key; an exact key wins; a loser keeps its name, suffixed only if taken", () => {
    const form = builder({ email: field("Email", "email", 1) });
    const out = mapToForm(form, { "E-Mail": "loose@example.com", email: "exact@example.com", other: "other@example.com" });
    expect({ ...out.data }).toEqual({ email: "exact@example.com", "E-Mail": "loose@example.com", other: "other@example.com" });
    expect(out.fieldsMapped).toEqual(["email"]);
    const clash = mapToForm(builder({ a: field("B", "text", 1) }), { b: "1", a: "2", b_2: "3" });
    expect({ ...clash.data }).toEqual({ a: "2", b: "1", b_2: "3" });
  });

  test("type matching needs exactly one unfilled field of the type", () => {
    const two = builder({ work: field("Work", "email", 1), home: field("Home", "email", 2) });
    expect({ ...mapToForm(two, { contact: "a@example.com" }).data }).toEqual({ contact: "a@example.com" });
  });

  test("an auto-created form gains unmatched keys as new fields (typed and labelled by the hints first)", () => {
    const form: Pick<Form, "fields" | "origin"> = { fields: { email: field("Email", "email", 3) }, origin: "webhook" };
    const out = mapToForm(
      form,
      { email: "a@example.com", budget: "10", note: "x" },
      { labels: { budget: "Your budget" }, types: { budget: "text" } },
    );
    expect({ ...out.newFields }).toEqual({
      budget: { label: "Your budget", type: "text", required: false, order: 4 },
      note: { label: "Note", type: "text", required: false, order: 5 },
    });
    expect(out.fieldsMapped).toEqual(["email", "budget", "note"]);
    // A key named like an Object.prototype member is an ordinary key (no hint is inherited).
    // An auto-created form stops growing at 500 fields; later keys are still stored.
    const full = Object.fromEntries(Array.from({ length: 499 }, (_, i) => [`f${i}`, field(`F${i}`, "text", i + 1)]));
    const capped = mapToForm({ fields: full, origin: "webhook" }, { new1: "a", new2: "b" });
    expect(Object.keys(capped.newFields)).toEqual(["new1"]);
    expect({ ...capped.data }).toEqual({ new1: "a", new2: "b" });
    expect(capped.fieldsMapped).toEqual(["new1"]);
    const odd = mapToForm({ fields: {}, origin: "webhook" }, { toString: "x", constructor_id: "y" }, { labels: {} });
    expect(odd.newFields.toString).toEqual({ label: "To string", type: "text", required: false, order: 1 });
  });
});

describe("validateRedirect and redirectTarget", () => {
  test("absolute http(s) only, without credentials; on the site's domain or a subdomain when it has one", () => {
    for (const bad of [
      "/x",
      "//evil.com",
      "javascript:alert(1)",
      "data:text/html,x",
      "ftp://a.com/",
      "mailto:a@b.c",
      "https://u:p@a.com/",
      "",
    ]) {
      expect([bad, code(() => validateRedirect(bad))]).toEqual([bad, "INVALID_REDIRECT"]);
    }
    expect(validateRedirect(" https://example.com/x ").href).toBe("https://example.com/x");
    for (const ok of [
      "https://example.com/",
      "https://www.example.com/",
      "https://a.b.example.com:8443/x",
      "https://EXAMPLE.COM/",
    ]) {
      expect(() => validateRedirect(ok, "example.com")).not.toThrow();
    }
    for (const bad of [
      "https://evil.com/",
      "https://example.com.evil.com/",
      "https://notexample.com/",
      "https://evil.com/?https://example.com",
      "https://evil.com#example.com",
    ]) {
      expect([bad, code(() => validateRedirect(bad, "example.com"))]).toEqual([bad, "INVALID_REDIRECT"]);
    }
  });

  test("ref is appended; the target's query is kept as written; its own ref is replaced; the fragment stays last", () => {
    const target = (url: string) => redirectTarget(new URL(url), "ACME-42");
    expect(target("https://example.com/thanks")).toBe("https://example.com/thanks?ref=ACME-42");
    expect(target("https://example.com/t?a=1%202&b=x+y&flag#top")).toBe(
      "https://example.com/t?a=1%202&b=x+y&flag&ref=ACME-42#top",
    );
    expect(target("https://example.com/t?ref=old&ref=older&x=1")).toBe("https://example.com/t?x=1&ref=ACME-42");
    expect(target("https://example.com:8443/?")).toBe("https://example.com:8443/?ref=ACME-42");
  });
});
