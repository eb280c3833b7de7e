import type { Form } from "../../../lib/store/forms";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { insertForm } from "../../support/fixtures";
import { csvLines, formspreeCsv, gzipAsync, importFinished, importPath, postImport } from "../../support/imports";

/**
 * Hostile files ("a 10 MB file with hostile cells"): every one answered with a 4xx or
 * with problems by line, never a 5xx, never a half-written import.
 */

const FIELDS: Form["fields"] = {
  email: { label: "Email", type: "email", required: true, order: 1 },
  message: { label: "Message", type: "textarea", required: false, order: 2 },
};
const MB = 1024 * 1024;
const when = (n: number) => new Date(Date.now() - n * 3_600_000).toISOString();

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("import-abuse");
  siteId = await createSite(owner);
});

/**
 * About 10 MB of CSV: formula cells, NUL and control characters, a `__proto__` column, invalid
 * UTF-8 (raw bytes in the body), nine cells of 1 MB, and a last row whose quote never closes.
 */
function hostileFile(): { text: string; goodRows: number } {
  const rows: string[][] = [];
  let goodRows = 0;
  // Few rows, so the shared bookkeeper (counts and search entries of each stored row) stays light;
  // the 10 MB is in the nine 1 MB cells.
  for (let i = 0; i < 20; i++) {
    rows.push([
      when(i),
      `row${i}@example.com`,
      ['=HYPERLINK("http://evil.example","x")', "+1+2", "@SUM(A1)", "-3"][i % 4] as string,
      "p",
    ]);
    goodRows++;
  }
  rows.push([when(1), "nul@example.com", "a\u0000b\u0001c\u001fd\u007f", "p"]);
  goodRows++;
  for (let i = 0; i < 9; i++) rows.push([when(2), `big${i}@example.com`, "x".repeat(MB + i), "p"]);
  const text = `${csvLines([["_date", "email", "message", "__proto__"], ...rows])}${when(3)},open@example.com,"never closed,p\r\n`;
  return { text, goodRows };
}

describe("a 10 MB file of hostile cells", () => {
  let form: Form;
  const { text, goodRows } = hostileFile();
  beforeAll(async () => {
    form = await insertForm(owner, siteId, { name: "Hostile", fields: FIELDS });
  });

  test("sent raw: 413 IMPORT_TOO_LARGE, nothing started", async () => {
    expect(text.length).toBeGreaterThan(9 * MB);
    const res = await postImport(owner.token, form.id, { file: text });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("IMPORT_TOO_LARGE");
    expect(res.body.error.message).toMatch(/gzip/);
    const list = await api("GET", `/api/v1/forms/${form.id}/imports`, { token: owner.token });
    expect(list.body.data.imports).toEqual([]);
  });

  test("sent gzipped, with invalid UTF-8 inside: the good rows land, the others are problems by line", async () => {
    // The body's bytes, with an invalid UTF-8 sequence (0xC3 0x28) inside the first message.
    const json = Buffer.from(JSON.stringify({ file: text, fileName: "hostile.csv" }));
    const marker = json.indexOf(Buffer.from("=HYPERLINK"));
    const body = Buffer.concat([json.subarray(0, marker), Buffer.from([0xc3, 0x28]), json.subarray(marker)]);
    const res = await api("POST", importPath(form.id), {
      token: owner.token,
      rawBody: await gzipAsync(body),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(res.status).toBe(202);
    const done = await importFinished(owner, form.id, res.body.data.import.id, 120_000);
    expect(done.rows).toBe(goodRows + 10);
    expect(done.imported).toBe(goodRows);
    expect(done.skipped).toBe(10);
    expect(done.problems.map((p: { code: string }) => p.code)).toEqual([...Array(9).fill("FIELD_VALUE_TOO_LONG"), "INVALID_ROW"]);
    expect(done.problems.at(-1).line).toBe(goodRows + 11);

    const page = await api("GET", `/api/v1/forms/${form.id}/submissions?limit=100`, { token: owner.token });
    const byEmail = new Map(page.body.data.submissions.map((s: { data: Record<string, string> }) => [s.data.email, s.data]));
    // Stored as sent, control characters gone; the export neutralizes formulas (lib/export.ts).
    expect(byEmail.get("nul@example.com")).toEqual({ email: "nul@example.com", message: "abcd", proto: "p" });
    expect(byEmail.get("row0@example.com")).toEqual({
      email: "row0@example.com",
      message: '\uFFFD(=HYPERLINK("http://evil.example","x")',
      proto: "p",
    });
  }, 180_000);

  test("10,000 columns: 400 INVALID_IMPORT_FILE", async () => {
    const header = Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(",");
    const res = await postImport(
      owner.token,
      form.id,
      { file: `${header}\n${"1,".repeat(9_999)}1\n`, preview: true },
      { gzip: true },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_IMPORT_FILE");
  });

  test("a gzip bomb (100 MB of text in a 100 KB body): 413 IMPORT_TOO_LARGE", async () => {
    // Built without a 100 MB string, and compressed off the event loop (see gzipAsync).
    const text = Buffer.concat([Buffer.from('{"file":"'), Buffer.alloc(100 * MB, "a"), Buffer.from('"}')]);
    const bomb = await gzipAsync(text);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const res = await api("POST", importPath(form.id), {
      token: owner.token,
      rawBody: bomb,
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("IMPORT_TOO_LARGE");
  });

  test("over 100,000 rows: 413; not gzip when it says so: 400; not JSON: 400", async () => {
    const many = `email\n${"a@b.c\n".repeat(100_001)}`;
    const tooMany = await postImport(owner.token, form.id, { file: many, preview: true }, { gzip: true });
    expect([tooMany.status, tooMany.body.error.code]).toEqual([413, "IMPORT_TOO_LARGE"]);
    const notGzip = await api("POST", importPath(form.id), {
      token: owner.token,
      rawBody: Buffer.from('{"file":"a"}'),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect([notGzip.status, notGzip.body.error.code]).toEqual([400, "INVALID_IMPORT_FILE"]);
    const notJson = await api("POST", importPath(form.id), {
      token: owner.token,
      rawBody: "{file:",
      headers: { "content-type": "application/json" },
    });
    expect([notJson.status, notJson.body.error.code]).toEqual([400, "INVALID_JSON"]);
  });

  test("a second import while one runs: 409 IMPORT_IN_PROGRESS", async () => {
    const other = await insertForm(owner, siteId, { name: "Busy", fields: FIELDS });
    // The lock is taken by the first request itself, before it answers: the job, which starts
    // through the stream and the queue, is still running when the second request comes. Few
    // rows, so the shared bookkeeper stays light.
    const rows = Array.from({ length: 20 }, (_, i) => ({
      date: when(i % 48),
      email: `r${i}@example.com`,
      name: "R",
      message: "m",
    }));
    const first = await postImport(owner.token, other.id, { file: formspreeCsv(rows) }, { gzip: true });
    expect(first.status).toBe(202);
    const second = await postImport(owner.token, other.id, { file: formspreeCsv(rows.slice(0, 1)) });
    expect([second.status, second.body.error.code]).toEqual([409, "IMPORT_IN_PROGRESS"]);
    await importFinished(owner, other.id, first.body.data.import.id, 120_000);
    const third = await postImport(owner.token, other.id, { file: formspreeCsv(rows.slice(0, 1)) });
    expect(third.status).toBe(202);
    expect((await importFinished(owner, other.id, third.body.data.import.id)).duplicates).toBe(1);
  }, 180_000);
});
