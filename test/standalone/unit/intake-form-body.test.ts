import busboy from "busboy";
import fc from "fast-check";
import { parseContentType } from "../../../lib/intake/charset";
import { parseMultipart } from "../../../lib/intake/form-body";
import { code } from "../../support/app-error";

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
