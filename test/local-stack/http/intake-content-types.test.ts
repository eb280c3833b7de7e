import { type Account, api, signupOwner } from "../../support/api";
import {
  BROWSER,
  expectNothingStored,
  expectStatus,
  intakePath,
  intakeTarget,
  postIntake,
  submitted,
} from "../../support/intake";

let owner: Account;
beforeAll(async () => {
  owner = await signupOwner("intake");
});

const target = (label: string, webhook?: Record<string, unknown>) => intakeTarget(label, webhook, owner);

describe("content types", () => {
  test("JSON: 200 with the result at the top level, and the submission stored with its metadata", async () => {
    const t = await target("json");
    const res = await postIntake(t.webhook, {
      json: { name: "Ada Lovelace", email: "ada@example.com", message: "Hello" },
      headers: BROWSER,
    });
    const { result, stored } = await submitted(res);
    expect(res.body).toEqual({
      success: true,
      submissionId: expect.stringMatching(/^sub_[0-9A-Za-z]{22}$/),
      referenceId: expect.stringMatching(/^JSON-\d+$/),
      fieldsMapped: ["name", "email", "message"],
    });
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(stored).toMatchObject({
      id: result.submissionId,
      referenceId: result.referenceId,
      webhookId: t.webhook.id,
      siteId: t.siteId,
      orgId: owner.orgId,
      data: { name: "Ada Lovelace", email: "ada@example.com", message: "Hello" },
      metadata: {
        source: "generic",
        userAgent: BROWSER["user-agent"],
        referer: BROWSER.referer,
        ip: expect.any(String),
        droppedFiles: [],
        ignoredFields: [],
      },
      spam: { score: expect.any(Number), isSpam: expect.any(Boolean), signals: expect.any(Array) },
      createdAt: expect.any(String),
    });
    expect(stored.type).toBe("submission");
  });

  test("urlencoded: repeated keys and name[] become lists; a single name[] is a list of one", async () => {
    const t = await target("urlencoded");
    const { stored } = await submitted(
      await postIntake(t.webhook, {
        form: [
          ["name", "Grace Hopper"],
          ["interest", "cobol"],
          ["interest", "compilers"],
          ["tags[]", "navy"],
          ["tags[]", "math"],
          ["solo[]", "only"],
          ["empty", ""],
        ],
      }),
    );
    expect(stored.data).toEqual({
      name: "Grace Hopper",
      interest: ["cobol", "compilers"],
      tags: ["navy", "math"],
      solo: ["only"],
      empty: "",
    });
  });

  test("multipart: text fields stored, files dropped and named in metadata.droppedFiles", async () => {
    const t = await target("multipart");
    const form = new FormData();
    form.append("name", "Katherine Johnson");
    form.append("cv", new Blob([Buffer.from("%PDF-1.7 secret file contents")], { type: "application/pdf" }), "cv.pdf");
    form.append("photo", new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xe0])], { type: "image/jpeg" }), "me.jpg");
    form.append("note", "multi\nline");
    const res = await api("POST", `${intakePath(t.webhook.id)}?key=${t.webhook.secretKey}`, { rawBody: form as never });
    const { stored } = await submitted(res);
    expect(stored.data).toEqual({ name: "Katherine Johnson", note: "multi\r\nline" });
    expect(stored.metadata.droppedFiles).toEqual(["cv", "photo"]);
    expect(JSON.stringify(stored)).not.toContain("secret file contents");
  });

  test("charset: ISO-8859-1 urlencoded %E9 is é; undeclared non-UTF-8 bytes are read as Windows-1252", async () => {
    const t = await target("charset");
    const latin = await submitted(
      await postIntake(t.webhook, {
        raw: "name=Ren%E9+Z%FCrcher&city=K%F8benhavn",
        contentType: "application/x-www-form-urlencoded; charset=ISO-8859-1",
      }),
    );
    expect(latin.stored.data).toEqual({ name: "René Zürcher", city: "København" });
    // Browsers never put a charset on urlencoded posts: a legacy Latin-1 page must not lose é.
    const legacy = await submitted(
      await postIntake(t.webhook, { raw: "name=Ren%E9&price=%8010", contentType: "application/x-www-form-urlencoded" }),
    );
    expect(legacy.stored.data).toEqual({ name: "René", price: "€10" });
    // The HTML standard's `_charset_` field names the encoding the browser used.
    const named = await submitted(
      await postIntake(t.webhook, {
        raw: "_charset_=windows-1251&name=%CF%F0%E8%E2%E5%F2",
        contentType: "application/x-www-form-urlencoded",
      }),
    );
    expect(named.stored.data).toEqual({ name: "Привет" });
    const utf8 = await submitted(await postIntake(t.webhook, { form: { name: "René 🎉 Привет" } }));
    expect(utf8.stored.data).toEqual({ name: "René 🎉 Привет" });
  });

  test("charset: a multipart part's own charset is honoured", async () => {
    const t = await target("part-charset");
    const boundary = "XyZbOuNdArY";
    const part = (headers: string, content: Buffer) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), content, Buffer.from("\r\n")]);
    const body = Buffer.concat([
      part(
        'Content-Disposition: form-data; name="latin"\r\nContent-Type: text/plain; charset=iso-8859-1',
        Buffer.from([0x52, 0x65, 0x6e, 0xe9]),
      ),
      part(
        'Content-Disposition: form-data; name="japanese"\r\nContent-Type: text/plain; charset=Shift_JIS',
        Buffer.from([0x93, 0xfa, 0x96, 0x7b]),
      ),
      part(
        'Content-Disposition: form-data; name="utf16"\r\nContent-Type: text/plain; charset=utf-16le',
        Buffer.from("Zoë", "utf16le"),
      ),
      part('Content-Disposition: form-data; name="plain"', Buffer.from("Zoë", "utf8")),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    const { stored } = await submitted(
      await postIntake(t.webhook, { raw: body, contentType: `multipart/form-data; boundary=${boundary}` }),
    );
    expect(stored.data).toEqual({ latin: "René", japanese: "日本", utf16: "Zoë", plain: "Zoë" });
  });

  test.each([
    ["text/plain", "name=x"],
    ["application/xml", "<name>x</name>"],
    ["application/x-www-form-urlencoded; charset=klingon", "name=x"],
    ["application/json; charset=klingon", '{"name":"x"}'],
    ["multipart/form-data; boundary=b; charset=klingon", '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--b--'],
  ])("415 UNSUPPORTED_MEDIA_TYPE for %s", async (contentType, raw) => {
    const t = await target("unsupported");
    const res = await postIntake(t.webhook, { raw, contentType });
    expectStatus(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectNothingStored(t);
  });

  test("415 when there is no content type at all", async () => {
    const t = await target("no-type");
    const res = await postIntake(t.webhook, { raw: Buffer.from('{"name":"x"}') });
    expectStatus(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  test.each([
    ["malformed JSON", "application/json", '{"name": "x",}'],
    ["a JSON array", "application/json", '[{"name": "x"}]'],
    ["a JSON string", "application/json", '"name"'],
    ["JSON null", "application/json", "null"],
    ["JSON nested past 32 levels", "application/json", `{"a":${"[".repeat(40)}1${"]".repeat(40)}}`],
    ["JSON nested 100,000 levels", "application/json", `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`],
    ["a number with leading zeros", "application/json", '{"id": 00000000000000000001}'],
    ["multipart without a boundary", "multipart/form-data", "name=x"],
    ["a truncated multipart body", "multipart/form-data; boundary=b", '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx'],
  ])("400 INVALID_BODY for %s", async (_label, contentType, raw) => {
    const t = await target("invalid");
    const res = await postIntake(t.webhook, { raw, contentType });
    expectStatus(res, 400, "INVALID_BODY");
    await expectNothingStored(t);
  });

  test.each([
    ["an empty JSON body", "application/json", ""],
    ["an empty object", "application/json", "{}"],
    ["an empty data object", "application/json", '{"data": {}, "name": "ignored"}'],
    ["only control fields", "application/json", '{"_redirect": "https://example.com/", "_hp": ""}'],
    ["only nulls", "application/json", '{"a": null}'],
    ["an empty form", "application/x-www-form-urlencoded", ""],
    ["only a captcha token", "application/x-www-form-urlencoded", "g-recaptcha-response=abc"],
    ["a form of blank names", "application/x-www-form-urlencoded", "=x&%20=y&&"],
  ])("400 NO_DATA_FIELDS for %s", async (_label, contentType, raw) => {
    const t = await target("nodata");
    const res = await postIntake(t.webhook, { raw, contentType });
    expectStatus(res, 400, "NO_DATA_FIELDS");
    await expectNothingStored(t);
  });
});
