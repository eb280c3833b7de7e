import { parse } from "csv-parse/sync";
import { INLINE_EXPORT_MAX_BYTES } from "../../../lib/export";
import type { Form } from "../../../lib/store/forms";
import { type Account, addMember, api, baseUrl, createSite, signupOwner } from "../../support/api";
import { apiKeyWith, insertForm } from "../../support/fixtures";
import { checkAgainstDocument } from "../../support/openapi";
import { makeSubmission, minutesAgo, putSubmissions } from "../../support/submissions";

/**
 * CSV files are read back with csv-parse, an independent RFC 4180 implementation: a parser
 * written next to the writer would share its author's reading of the RFC.
 */
const parseCsv = (text: string): string[][] => parse(text, { bom: true, relax_column_count: false });

const exportPath = (formId: string, query = "") => `/api/v1/forms/${formId}/submissions/export${query}`;

/** The export as a browser or `curl -OJ` gets it: the status, headers and the file's exact bytes (a BOM included). */
async function exportFile(path: string, token: string) {
  const res = await fetch(`${baseUrl()}${path}`, { headers: { authorization: `Bearer ${token}` }, redirect: "manual" });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString("utf8");
  checkAgainstDocument({ method: "GET", path, status: res.status, contentType: res.headers.get("content-type"), text });
  return { status: res.status, headers: res.headers, bytes, text };
}

const FIELDS: Form["fields"] = {
  name: { label: "Name", type: "name", required: true, order: 1 },
  email: { label: "Email", type: "email", required: true, order: 2 },
  note: { label: "Note", type: "textarea", required: false, order: 3 },
  tags: { label: "Tags", type: "select", required: false, order: 4 },
};

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("export");
  siteId = await createSite(owner);
});

describe("CSV and JSON export", () => {
  let form: Form;
  let subs: ReturnType<typeof makeSubmission>[];
  beforeAll(async () => {
    form = await insertForm(owner, siteId, { name: "Contact: Sales!", fields: FIELDS });
    subs = [
      makeSubmission(form, {
        createdAt: minutesAgo(40),
        referenceId: "EXP-1",
        data: {
          name: 'Ada "The Countess" Lovelace',
          email: "ada@example.com",
          note: "line one\r\nline two, with a comma",
          tags: ["a", "b"],
        },
      }),
      makeSubmission(form, {
        createdAt: minutesAgo(30),
        referenceId: "EXP-2",
        data: { name: '=HYPERLINK("http://evil.example","click")', email: "+1 555 0100", note: "-2+3", tags: "@SUM(A1)" },
      }),
      makeSubmission(form, {
        createdAt: minutesAgo(20),
        referenceId: "EXP-3",
        data: { name: "\tTabbed", email: "c@example.com", note: "\rCarriage", legacy: "from a removed field" },
      }),
      makeSubmission(form, {
        createdAt: minutesAgo(10),
        referenceId: "EXP-4",
        data: { name: "Spammer", email: "spam@example.com" },
        spam: { score: 95, isSpam: true, signals: [] },
      }),
    ];
    await putSubmissions(subs);
  });

  test("CSV: header from the fields plus referenceId, createdAt, spam; RFC 4180 quoting; formulas neutralized", async () => {
    const res = await exportFile(exportPath(form.id, "?format=csv"), owner.token);
    expect(res.status).toBe(200);
    // The file itself, named, as a download: never a JSON envelope around it.
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const filename = res.headers.get("x-inlet-export-filename") as string;
    expect(filename).toMatch(/^contact-sales-submissions-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${filename}"`);
    expect(res.headers.get("x-inlet-export-rows")).toBe("3");
    expect(Number(res.headers.get("x-inlet-export-bytes"))).toBe(res.bytes.length);
    const content = res.text;
    expect(content.startsWith("\uFEFF")).toBe(true);
    // Every record ends with CRLF; the only bare line breaks are inside quoted cells.
    expect(content.endsWith("\r\n")).toBe(true);

    const rows = parseCsv(content);
    expect(rows[0]).toEqual(["Name", "Email", "Note", "Tags", "legacy", "referenceId", "createdAt", "spam", "expiresAt"]);
    const [s1, s2, s3] = subs;
    // Newest first, spam excluded by default.
    expect(rows.slice(1)).toEqual([
      ["'\tTabbed", "c@example.com", "'\rCarriage", "", "from a removed field", "EXP-3", s3?.createdAt, "false", ""],
      [
        '\'=HYPERLINK("http://evil.example","click")',
        "'+1 555 0100",
        "'-2+3",
        "'@SUM(A1)",
        "",
        "EXP-2",
        s2?.createdAt,
        "false",
        "",
      ],
      [
        'Ada "The Countess" Lovelace',
        "ada@example.com",
        "line one\r\nline two, with a comma",
        "a, b",
        "",
        "EXP-1",
        s1?.createdAt,
        "false",
        "",
      ],
    ]);
    // Quotes doubled inside a quoted cell (RFC 4180 rule 7).
    expect(content).toContain('"Ada ""The Countess"" Lovelace"');
  });

  test("the list's filters apply: spam, search and dates", async () => {
    const refs = async (query: string) => {
      const res = await exportFile(exportPath(form.id, query), owner.token);
      expect(res.status).toBe(200);
      return parseCsv(res.text)
        .slice(1)
        .map((row) => row[row.length - 4]);
    };
    expect(await refs("?spam=all")).toEqual(["EXP-4", "EXP-3", "EXP-2", "EXP-1"]);
    expect(await refs("?spam=true")).toEqual(["EXP-4"]);
    expect(await refs("?q=COUNTESS")).toEqual(["EXP-1"]);
    expect(
      await refs(
        `?from=${encodeURIComponent(subs[1]?.createdAt as string)}&to=${encodeURIComponent(subs[2]?.createdAt as string)}`,
      ),
    ).toEqual(["EXP-3", "EXP-2"]);
    // Nothing matches: a header alone.
    const empty = await exportFile(exportPath(form.id, "?q=nothing-like-this"), owner.token);
    expect(empty.headers.get("x-inlet-export-rows")).toBe("0");
    expect(parseCsv(empty.text)).toEqual([["Name", "Email", "Note", "Tags", "referenceId", "createdAt", "spam", "expiresAt"]]);
  });

  test("JSON: the form's fields and every submission in the API's shape", async () => {
    const res = await exportFile(exportPath(form.id, "?format=json&spam=all"), owner.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="contact-sales-submissions-.*\.json"$/);
    expect(res.headers.get("x-inlet-export-rows")).toBe("4");
    const file = JSON.parse(res.text);
    expect(file.form).toEqual({
      id: form.id,
      name: "Contact: Sales!",
      fields: [
        { key: "name", label: "Name", type: "name", required: true, order: 1 },
        { key: "email", label: "Email", type: "email", required: true, order: 2 },
        { key: "note", label: "Note", type: "textarea", required: false, order: 3 },
        { key: "tags", label: "Tags", type: "select", required: false, order: 4 },
      ],
    });
    expect(file.submissions.map((s: { referenceId: string }) => s.referenceId)).toEqual(["EXP-4", "EXP-3", "EXP-2", "EXP-1"]);
    expect(file.submissions[3]).toEqual(
      expect.objectContaining({ id: subs[0]?.id, data: subs[0]?.data, spam: { score: 0, isSpam: false, signals: [] } }),
    );
    const one = await api("GET", `/api/v1/submissions/${subs[0]?.id}`, { token: owner.token });
    // The same shape as the API's (the lead may arrive in between: the pipeline runs meanwhile),
    // less `unread`: whether the reading member opened it is theirs, not the submission's.
    const { lead: _a, ...exported } = file.submissions[3];
    const { lead: _b, unread, ...read } = one.body.data.submission;
    expect(unread).toBe(true);
    expect(exported).toEqual(read);
  });

  test.each([["format=xml"], ["format="], ["spam=maybe"], ["from=soon"], ["to=2026-02-30T25:00:00Z"], ["q="]])(
    "?%s is 400 VALIDATION_ERROR",
    async (query) => {
      const res = await api("GET", exportPath(form.id, `?${query}`), { token: owner.token });
      expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    },
  );

  test("needs submissions.export: an API key without it is 403; a member session has it", async () => {
    const own = await signupOwner("export-perms");
    const site = await createSite(own);
    const f = await insertForm(own, site);
    await putSubmissions([makeSubmission(f, { data: { email: "a@example.com" } })]);
    const lacking = await apiKeyWith(own, ["submissions.view", "submissions.delete", "forms.view"]);
    const denied = await api("GET", exportPath(f.id), { token: lacking });
    expect([denied.status, denied.body.error.code]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
    expect(denied.body.error.message).toContain("submissions.export");
    const allowed = await exportFile(exportPath(f.id), await apiKeyWith(own, ["submissions.export"]));
    expect([allowed.status, allowed.headers.get("x-inlet-export-rows")]).toEqual([200, "1"]);
    const member = await addMember(own, "member");
    expect((await api("GET", exportPath(f.id), { token: member.token })).status).toBe(200);
    expect((await api("GET", exportPath(f.id))).status).toBe(401);
  });

  test("another organization's form is 404, with a session or a key", async () => {
    const intruder = await signupOwner("export-intruder");
    for (const token of [intruder.token, await apiKeyWith(intruder, ["submissions.export"])]) {
      for (const query of ["", "?format=json&spam=all"]) {
        const res = await api("GET", exportPath(form.id, query), { token });
        expect([res.status, res.body.error.code]).toEqual([404, "NOT_FOUND"]);
      }
    }
    expect((await api("GET", exportPath("form_0000000000000000000000"), { token: owner.token })).status).toBe(404);
  });
});

describe("large exports", () => {
  /**
   * Enough rows of about 12 KB each to pass the inline limit (INLINE_EXPORT_MAX_BYTES) and span
   * several 1 MB query pages. Few rows for those bytes: every row written here also passes through
   * the local stack's bookkeeper (counts and search index, a few writes each), which the tests
   * running alongside share. 1,600 rows of 3 KB kept it busy for about 20 s on a loaded machine,
   * long enough for another file's wait on a count to run out (a CI run failed so).
   */
  const COUNT = 400;
  const REPEAT = 36;

  test(`${COUNT} submissions export through S3: a short-lived link to a file with every row`, async () => {
    const started = Date.now();
    const own = await signupOwner("export-large");
    const site = await createSite(own);
    const form = await insertForm(own, site, { name: "Big form", fields: FIELDS });
    const base = Date.now() - COUNT * 1000;
    const message =
      "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur, ";
    // Stored as spam so the intake pipeline (which passes only non-spam inserts) stays quiet;
    // the export asks for spam=true and reads them all the same way.
    const subs = Array.from({ length: COUNT }, (_, i) =>
      makeSubmission(form, {
        referenceId: `BIG-${i + 1}`,
        createdAt: new Date(base + i * 1000).toISOString(),
        data: { name: `Person ${i + 1}`, email: `person${i + 1}@example.com`, note: `${message.repeat(REPEAT)}#${i + 1}` },
        spam: { score: 80, isSpam: true, signals: [] },
      }),
    );
    await putSubmissions(subs);
    const written = Date.now();

    const res = await exportFile(exportPath(form.id, "?spam=true"), own.token);
    // Too large for a Lambda answer: a redirect to the file's short-lived link, which a browser follows.
    expect(res.status).toBe(303);
    const data = {
      rows: Number(res.headers.get("x-inlet-export-rows")),
      bytes: Number(res.headers.get("x-inlet-export-bytes")),
      url: res.headers.get("location") as string,
      expiresAt: res.headers.get("x-inlet-export-expires") as string,
    };
    expect(data.rows).toBe(COUNT);
    expect(res.headers.get("x-inlet-export-filename")).toMatch(/^big-form-submissions-.*\.csv$/);
    expect(data.url).toMatch(/^http/);
    expect(data.bytes).toBeGreaterThan(INLINE_EXPORT_MAX_BYTES);
    // The answer itself is empty; the link expires within 15 minutes and is signed.
    expect(res.bytes.length).toBe(0);
    const ttl = Date.parse(data.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(10 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const url = new URL(data.url);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(url.searchParams.get("X-Amz-Signature")).toEqual(expect.any(String));
    expect(url.pathname).toMatch(new RegExp(`/exports/${own.orgId}/${form.id}/`));

    const download = await fetch(data.url);
    expect(download.status).toBe(200);
    const file = Buffer.from(await download.arrayBuffer());
    expect(file.length).toBe(data.bytes);
    const text = file.toString("utf8");
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(["Name", "Email", "Note", "Tags", "referenceId", "createdAt", "spam", "expiresAt"]);
    expect(rows).toHaveLength(COUNT + 1);
    const refs = rows.slice(1).map((row) => row[4]);
    // Newest first, and every submission exactly once.
    expect(refs[0]).toBe(`BIG-${COUNT}`);
    expect(refs[COUNT - 1]).toBe("BIG-1");
    expect(new Set(refs).size).toBe(COUNT);
    expect(rows[COUNT]).toEqual([
      "Person 1",
      "person1@example.com",
      `${message.repeat(REPEAT)}#1`,
      "",
      "BIG-1",
      subs[0]?.createdAt,
      "true",
      "",
    ]);
    console.log(
      `large export: wrote ${COUNT} in ${written - started} ms, exported and downloaded ${data.bytes} bytes in ${Date.now() - written} ms`,
    );
  }, 300_000);
});
