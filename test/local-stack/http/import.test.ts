import type { Form } from "../../../lib/store/forms";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { formCountsItem, siteDayItem, webhookCountsItem } from "../../support/bookkeeping";
import { eventually } from "../../support/eventually";
import { apiKeyWith, insertForm } from "../../support/fixtures";
import {
  basinCsv,
  daysAgo,
  IMPORT_FIELDS as FIELDS,
  formspreeCsv,
  importFinished,
  importPath,
  netlifyCsv,
  netlifyJson,
  postImport,
} from "../../support/imports";

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("import");
  siteId = await createSite(owner);
});

async function formSubmissions(formId: string) {
  const res = await api("GET", `/api/v1/forms/${formId}/submissions?limit=100&spam=all`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body.data.submissions as Record<string, any>[];
}

describe("Formspree's export", () => {
  let form: Form;
  const rows = [
    { date: daysAgo(3), email: "ada@example.com", name: "Ada", message: "Hello" },
    { date: daysAgo(3, 14), email: "bob@example.com", name: "Bob", message: "Second one" },
    { date: daysAgo(5), email: "cy@example.com", name: "Cy", message: "Older" },
  ];
  beforeAll(async () => {
    form = await insertForm(owner, siteId, { name: "Formspree form", fields: FIELDS });
  });

  test("the preview detects the source, suggests the mapping, reads the times and writes nothing", async () => {
    const res = await postImport(owner.token, form.id, { file: formspreeCsv(rows), fileName: "export.csv", preview: true });
    expect(res.status).toBe(200);
    const preview = res.body.data;
    expect(preview.source).toBe("formspree");
    expect(preview.timeColumn).toBe("_date");
    expect(preview.mapping).toEqual({ _date: null, email: "email", name: "name", message: "message", _subject: null });
    expect(preview.columns[1]).toEqual({
      name: "email",
      suggestedField: "email",
      samples: ["ada@example.com", "bob@example.com", "cy@example.com"],
    });
    expect(preview.rows).toBe(3);
    expect(preview.sample[0]).toEqual({
      line: 2,
      createdAt: rows[0]?.date,
      data: { email: "ada@example.com", name: "Ada", message: "Hello" },
    });
    expect(preview.problems).toEqual([]);
    expect(preview.newFields).toEqual([]);
    const list = await api("GET", `/api/v1/forms/${form.id}/imports`, { token: owner.token });
    expect(list.body.data.imports).toEqual([]);
    expect(await formSubmissions(form.id)).toEqual([]);
  });

  test("an import stores each row with its original time, its own reference, marked imported; a second import stores nothing again", async () => {
    const started = await postImport(owner.token, form.id, { file: formspreeCsv(rows), fileName: "export.csv" }, { gzip: true });
    expect(started.status).toBe(202);
    const job = started.body.data.import;
    expect(job).toMatchObject({ formId: form.id, status: "running", source: "formspree", fileName: "export.csv", rows: 3 });
    expect(job.id).toMatch(/^imp_[0-9A-Za-z]{22}$/);
    const done = await importFinished(owner, form.id, job.id);
    expect(done).toMatchObject({ imported: 3, duplicates: 0, skipped: 0, spam: 0, problems: [] });

    const stored = await formSubmissions(form.id);
    expect(stored.map((s) => s.createdAt).sort()).toEqual(rows.map((r) => r.date).sort());
    for (const s of stored) {
      expect(s.imported).toEqual({ importId: job.id, source: "formspree", line: expect.any(Number) });
      expect(s.referenceId).toMatch(/^[A-Z0-9]+-\d+$/);
      expect(s.lead).toBeNull();
      expect(s.metadata.source).toBe("import");
    }
    // References in the file's row order.
    const byLine = [...stored]
      .sort((a, b) => a.imported.line - b.imported.line)
      .map((s) => Number(s.referenceId.split("-").pop()));
    expect(byLine).toEqual([...byLine].sort((a, b) => a - b));
    expect(new Set(byLine).size).toBe(3);

    // Counted on the form and on their own days (the bookkeeper, from the stream).
    await eventually("form counts", async () => Number((await formCountsItem(form.id))?.inbox) === 3, { timeoutMs: 90_000 });
    const day3 = (rows[0]?.date ?? "").slice(0, 10);
    await eventually("day counts", async () => Number((await siteDayItem(siteId, day3))?.inbox) >= 2, { timeoutMs: 90_000 });
    // Counted on its day and form, never by source nor on a webhook's counts: no webhook received it.
    const day = await siteDayItem(siteId, day3);
    expect(day?.[`f:${form.id}`]).toBe(2);
    expect(Object.keys(day ?? {}).filter((k) => k.startsWith("w:"))).toEqual([]);
    expect(await webhookCountsItem(siteId, job.id)).toBeUndefined();

    const again = await postImport(owner.token, form.id, { file: formspreeCsv(rows), fileName: "export.csv" });
    expect(again.status).toBe(202);
    const second = await importFinished(owner, form.id, again.body.data.import.id);
    expect(second).toMatchObject({ imported: 0, duplicates: 3 });
    expect(await formSubmissions(form.id)).toHaveLength(3);

    const list = await api("GET", `/api/v1/forms/${form.id}/imports`, { token: owner.token });
    expect(list.body.data.imports.map((i: { id: string }) => i.id)).toEqual([again.body.data.import.id, job.id]);
  }, 240_000);
});

describe("Netlify's and Basin's exports", () => {
  test("Netlify: its bookkeeping columns are not imported, its id is the row's identity", async () => {
    const form = await insertForm(owner, siteId, { name: "Netlify form", fields: FIELDS });
    const file = netlifyCsv([
      { id: "5f1a", createdAt: daysAgo(2), name: "Nia", email: "nia@example.com", message: "Hi" },
      { id: "5f1b", createdAt: daysAgo(1), name: "Ola", email: "ola@example.com", message: "Line one\nline two" },
      { id: "5f1a", createdAt: daysAgo(2), name: "Nia", email: "nia@example.com", message: "Hi" },
    ]);
    const preview = await postImport(owner.token, form.id, { file, preview: true });
    expect(preview.body.data.source).toBe("netlify");
    expect(preview.body.data.timeColumn).toBe("created_at");
    expect(preview.body.data.mapping).toMatchObject({
      form_name: null,
      ip: null,
      user_agent: null,
      referrer: null,
      id: null,
      created_at: null,
    });
    const started = await postImport(owner.token, form.id, { file });
    const done = await importFinished(owner, form.id, started.body.data.import.id);
    expect(done).toMatchObject({ rows: 3, imported: 2, duplicates: 1 });
    const stored = await formSubmissions(form.id);
    expect(stored.map((s) => s.data.message).sort()).toEqual(["Hi", "Line one\nline two"]);
    expect(stored.every((s) => !("ip" in s.data) && !("form_name" in s.data))).toBe(true);
  });

  test("JSON exports named by their service: Netlify's API (fields in `data`, its record beside them) and Formspree's", async () => {
    const form = await insertForm(owner, siteId, { name: "Netlify JSON form", fields: FIELDS });
    const rows = [
      { id: "64a1", createdAt: daysAgo(3), name: "Nia Lane", email: "nia@example.com", message: "Hi" },
      { id: "64a2", createdAt: daysAgo(2), name: "Ola", email: "ola@example.com", message: "Two\nlines" },
    ];
    const file = netlifyJson(rows);
    const preview = await postImport(owner.token, form.id, { file, source: "netlify", preview: true });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({
      source: "netlify",
      timeColumn: "created_at",
      rows: 2,
      problems: [],
      newFields: [],
    });
    // Only `data`'s fields are suggested: Netlify's record of the submission, and its ip, user
    // agent and referrer, are not imported.
    expect(
      Object.entries(preview.body.data.mapping)
        .filter(([, key]) => key !== null)
        .sort(),
    ).toEqual([
      ["email", "email"],
      ["message", "message"],
      ["name", "name"],
    ]);
    expect(preview.body.data.mapping).toMatchObject({ first_name: null, last_name: null, body: null, id: null, ip: null });
    const started = await postImport(owner.token, form.id, { file, source: "netlify" });
    expect(started.status).toBe(202);
    const done = await importFinished(owner, form.id, started.body.data.import.id);
    expect(done).toMatchObject({ source: "netlify", rows: 2, imported: 2, skipped: 0 });
    const stored = await formSubmissions(form.id);
    expect(stored.map((s) => [s.createdAt, s.data, s.imported.line]).sort()).toEqual(
      rows.map((r, i) => [r.createdAt, { name: r.name, email: r.email, message: r.message }, i + 1]).sort(),
    );

    // Formspree's API answer: `{fields, submissions}`, its `_date` without a zone (UTC).
    const formspree = JSON.stringify({
      fields: ["_date", "_id", "_replyto", "message"],
      submissions: [
        {
          _date: daysAgo(4).replace("Z", "").replace(".000", ".707632"),
          _id: 2,
          _replyto: "fs@example.com",
          message: "From Formspree",
          _status: { "a@example.com": { delivered: true } },
        },
      ],
    });
    const fs = await postImport(owner.token, form.id, { file: formspree, source: "formspree", preview: true });
    expect(fs.status).toBe(200);
    expect(fs.body.data).toMatchObject({ source: "formspree", timeColumn: "_date", rows: 1, problems: [] });
    expect(fs.body.data.sample[0]).toEqual({
      line: 1,
      createdAt: daysAgo(4).replace(".000Z", ".707Z"),
      data: { replyto: "fs@example.com", message: "From Formspree" },
    });
  });

  test("Basin: a row Basin marked spam is stored as spam and counted so", async () => {
    const form = await insertForm(owner, siteId, { name: "Basin form", fields: FIELDS });
    // Basin's `YYYY-MM-DD HH:MM:SS` (read as UTC), within the spam retention's 30 days of today:
    // a fixed date would turn EXPIRED a month after it.
    const basinTime = (iso: string) => iso.slice(0, 19).replace("T", " ");
    const spamAt = daysAgo(6, 10);
    const file = basinCsv([
      { id: "b1", submittedAt: basinTime(daysAgo(7, 9)), email: "a@example.com", message: "Real" },
      { id: "b2", submittedAt: basinTime(spamAt), email: "s@example.com", message: "Buy now", spam: true },
    ]);
    const started = await postImport(owner.token, form.id, { file, mapping: { message: "note" } });
    expect(started.status).toBe(202);
    const done = await importFinished(owner, form.id, started.body.data.import.id);
    expect(done).toMatchObject({ source: "basin", imported: 2, spam: 1 });
    const stored = await formSubmissions(form.id);
    const spam = stored.find((s) => s.spam.isSpam);
    expect(spam?.data).toEqual({ email: "s@example.com", note: "Buy now" });
    expect(spam?.createdAt).toBe(spamAt);
    // The mapping's new key became a field of the form.
    const formRes = await api("GET", `/api/v1/forms/${form.id}`, { token: owner.token });
    expect(formRes.body.data.form.fields.map((f: { key: string }) => f.key)).toContain("note");
  });
});

describe("plain CSV and JSON", () => {
  test("a plain CSV: slugs for unknown columns, a chosen time column, bad rows by line while good rows land", async () => {
    const form = await insertForm(owner, siteId, { name: "Plain", fields: FIELDS });
    const file = [
      "When,E-mail Address,Company Name,Notes",
      `${daysAgo(4)},ok1@example.com,Acme,fine`,
      "not a date,bad@example.com,Acme,bad time",
      `${daysAgo(4)},,,`,
      `${daysAgo(4)},extra@example.com,Acme,one,too many`,
      `${daysAgo(3)},ok2@example.com,"Quoted, Inc","multi`,
      `line"`,
      `${daysAgo(2)},ok3@example.com,Beta,last`,
    ].join("\n");
    const preview = await postImport(owner.token, form.id, { file, preview: true, timeColumn: "When" });
    expect(preview.body.data.source).toBe("csv");
    expect(preview.body.data.mapping).toEqual({
      When: null,
      "E-mail Address": "e_mail_address",
      "Company Name": "company_name",
      Notes: "notes",
    });
    expect(preview.body.data.problems).toEqual([
      { line: 3, code: "INVALID_TIME", message: expect.any(String) },
      { line: 4, code: "NO_DATA", message: expect.any(String) },
      { line: 5, code: "WRONG_COLUMN_COUNT", message: expect.any(String) },
    ]);
    const started = await postImport(owner.token, form.id, { file, timeColumn: "When", mapping: { "E-mail Address": "email" } });
    const done = await importFinished(owner, form.id, started.body.data.import.id);
    expect(done).toMatchObject({ rows: 6, imported: 3, skipped: 3 });
    expect(done.problems.map((p: { line: number }) => p.line)).toEqual([3, 4, 5]);
    const stored = await formSubmissions(form.id);
    expect(stored.map((s) => s.data.email).sort()).toEqual(["ok1@example.com", "ok2@example.com", "ok3@example.com"]);
    expect(stored.find((s) => s.data.email === "ok2@example.com")?.imported.line).toBe(6);
  });

  test("Inlet's own JSON export imports back: `{submissions: [...]}`, data keys as columns, the JSON line is the index + 1", async () => {
    const form = await insertForm(owner, siteId, { name: "From JSON", fields: FIELDS });
    const file = JSON.stringify({
      form: { id: "form_x", name: "Old", fields: [] },
      submissions: [
        {
          id: "sub_old1",
          referenceId: "OLD-1",
          createdAt: daysAgo(6),
          data: { email: "j1@example.com", message: "one" },
          spam: { isSpam: false },
        },
        "not an object",
        {
          id: "sub_old2",
          referenceId: "OLD-2",
          createdAt: daysAgo(5),
          data: { email: "j2@example.com", PROTO: "x", tags: ["a", "b"] },
        },
      ],
    }).replace('"PROTO"', '"__proto__"');
    const preview = await postImport(owner.token, form.id, { file, preview: true });
    expect(preview.body.data).toMatchObject({ source: "json", timeColumn: "createdAt", rows: 3 });
    expect(preview.body.data.mapping).toMatchObject({
      id: null,
      referenceId: null,
      createdAt: null,
      email: "email",
      tags: "tags",
      __proto__: "proto",
    });
    expect(preview.body.data.problems).toEqual([{ line: 2, code: "NOT_AN_OBJECT", message: expect.any(String) }]);
    const started = await postImport(owner.token, form.id, { file, source: "json" });
    const done = await importFinished(owner, form.id, started.body.data.import.id);
    expect(done).toMatchObject({ imported: 2, skipped: 1 });
    const stored = await formSubmissions(form.id);
    expect(stored.find((s) => s.data.email === "j2@example.com")?.data).toEqual({
      email: "j2@example.com",
      proto: "x",
      tags: "a, b",
    });
  });

  test("a row older than the form's retention is EXPIRED, never stored", async () => {
    const form = await insertForm(owner, siteId, {
      name: "Short retention",
      fields: FIELDS,
      retention: { inboxDays: 30, spamDays: 30 },
    });
    const file = formspreeCsv([
      { date: daysAgo(40), email: "old@example.com", name: "Old", message: "too old" },
      { date: daysAgo(10), email: "new@example.com", name: "New", message: "kept" },
    ]);
    const started = await postImport(owner.token, form.id, { file });
    const done = await importFinished(owner, form.id, started.body.data.import.id);
    expect(done).toMatchObject({
      imported: 1,
      skipped: 1,
      problems: [{ line: 2, code: "EXPIRED", message: expect.any(String) }],
    });
    const [kept] = await formSubmissions(form.id);
    expect(kept?.expiresAt).not.toBeNull();
  });
});

describe("validation and access", () => {
  let form: Form;
  beforeAll(async () => {
    form = await insertForm(owner, siteId, { name: "Access", fields: FIELDS });
  });
  const file = formspreeCsv([{ date: daysAgo(1), email: "a@example.com", name: "A", message: "m" }]);

  test("a mapping naming a column the file lacks, or a key that is no field key: 400 VALIDATION_ERROR with paths", async () => {
    const res = await postImport(owner.token, form.id, {
      file,
      preview: true,
      mapping: { nope: "x", email: "_bad", name: "email" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "mapping.email",
      "mapping.name",
      "mapping.nope",
    ]);
  });

  test("no header, not JSON: 400 INVALID_IMPORT_FILE", async () => {
    expect((await postImport(owner.token, form.id, { file: "   \n", preview: true })).body.error.code).toBe(
      "INVALID_IMPORT_FILE",
    );
    expect((await postImport(owner.token, form.id, { file: "[1,2", preview: true })).body.error.code).toBe("INVALID_IMPORT_FILE");
    expect((await postImport(owner.token, form.id, { file: '{"a": 1}', preview: true })).body.error.code).toBe(
      "INVALID_IMPORT_FILE",
    );
  });

  test("a member 403; any API key 403 SESSION_REQUIRED (file uploads are dashboard-session actions, spec 5.2 rule 3); a foreign form 404", async () => {
    const member = await addMember(owner, "member", "import-member");
    expect((await postImport(member.token, form.id, { file, preview: true })).status).toBe(403);
    expect((await api("GET", `/api/v1/forms/${form.id}/imports`, { token: member.token })).status).toBe(200);
    const readOnly = await apiKeyWith(owner, ["forms.view", "submissions.view"]);
    const keyRefused = await postImport(readOnly, form.id, { file, preview: true });
    expect([keyRefused.status, keyRefused.body.error.code]).toEqual([403, "SESSION_REQUIRED"]);
    // The key may still read the form's imports, as it may read the form.
    expect((await api("GET", `/api/v1/forms/${form.id}/imports`, { token: readOnly })).status).toBe(200);
    // A key created without permissions holds every one its creator may give it, and never this one.
    const created = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "everything" } });
    expect(created.body.data.key.permissions).not.toContain("submissions.import");
    const refused = await postImport(created.body.data.key.secretKey, form.id, { file, preview: true });
    expect([refused.status, refused.body.error.code]).toEqual([403, "SESSION_REQUIRED"]);
    const granted = await api("POST", "/api/v1/api-keys", {
      token: owner.token,
      body: { name: "importer", permissions: ["forms.view", "submissions.import"] },
    });
    expect([granted.status, granted.body.error.code]).toEqual([400, "RESTRICTED_PERMISSION"]);
    // The owner's session imports; the job names the member who started it.
    const started = await postImport(owner.token, form.id, { file });
    expect(started.status).toBe(202);
    const done = await importFinished(owner, form.id, started.body.data.import.id);
    expect(done.createdBy).toBe(owner.userId);

    const stranger = await signupOwner("import-stranger");
    expect((await postImport(stranger.token, form.id, { file, preview: true })).status).toBe(404);
    expect((await api("GET", `/api/v1/forms/${form.id}/imports/${done.id}`, { token: stranger.token })).status).toBe(404);
    expect((await api("GET", `/api/v1/forms/${form.id}/imports/imp_00000000000000000000zz`, { token: owner.token })).status).toBe(
      404,
    );
    expect((await api("POST", importPath(form.id), { body: { file } })).status).toBe(401);
  });
});
