import type { Form } from "../../../lib/store/forms";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { apiKeyWith, insertForm } from "../../support/fixtures";
import {
  createHook,
  formOfHook,
  makeSubmission,
  minutesAgo,
  putSubmissions,
  replyToMetadata,
  storedItem,
  submitTo,
} from "../../support/submissions";

const listPath = (formId: string, query = "") => `/api/v1/forms/${formId}/submissions${query}`;
const subPath = (id: string) => `/api/v1/submissions/${id}`;
const BULK = "/api/v1/submissions/bulk-delete";
const erasePath = (siteId: string) => `/api/v1/sites/${siteId}/submissions/erase`;

const ids = (res: { body: { data: { submissions: { id: string }[] } } }) => res.body.data.submissions.map((s) => s.id);

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("subs");
  siteId = await createSite(owner);
});

describe("reading submissions", () => {
  test("a submission received by intake reads back with its data, metadata and spam verdict", async () => {
    const hook = await createHook(owner, siteId);
    const sent = await submitTo(hook, { name: "Ada", email: "ada@example.com", interests: ["a", "b"], _subject: "Hi" });
    const formId = await formOfHook(owner, siteId, hook);
    const res = await api("GET", subPath(sent.submissionId), { token: owner.token });
    expect(res.status).toBe(200);
    // The lead appears once the intake pipeline has processed the submission (asynchronously).
    const { lead, ...submission } = res.body.data.submission;
    expect(lead === null || typeof lead === "object").toBe(true);
    expect(submission).toEqual({
      id: sent.submissionId,
      formId,
      siteId,
      webhookId: hook.id,
      referenceId: sent.referenceId,
      data: { name: "Ada", email: "ada@example.com", interests: ["a", "b"] },
      metadata: expect.objectContaining({ source: "partner_automation", droppedFiles: [], subject: "Hi" }),
      spam: { score: expect.any(Number), isSpam: false, signals: expect.any(Array) },
      releasedAt: null,
      // The form's inbox is kept until deleted (docs/privacy.md, "Retention").
      expiresAt: null,
      valuesDeletedAt: null,
      // Nobody opened it yet (docs/triage.md, "Filters and unread").
      unread: true,
      createdAt: expect.any(String),
      // Untriaged (docs/triage.md): new, nobody's, untagged, no notes; updatedAt is its arrival.
      status: "new",
      ownerId: null,
      tags: [],
      updatedAt: res.body.data.submission.createdAt,
      noteCount: 0,
      // Not brought by an import (docs/importing.md).
      imported: null,
    });
    const list = await api("GET", listPath(formId), { token: owner.token });
    expect(list.body.data.submissions).toEqual([expect.objectContaining(submission)]);
    expect(list.body.data.nextCursor).toBeNull();
  });

  test("the list is newest first, cursor paginated, and filters spam, dates and search", async () => {
    const form = await insertForm(owner, siteId);
    const at = (m: number) => minutesAgo(m);
    const subs = [
      makeSubmission(form, { createdAt: at(50), data: { email: "old@example.com", note: "first" }, referenceId: "SUBS-1" }),
      makeSubmission(form, {
        createdAt: at(40),
        data: { email: "Ada@Example.com", note: "Needs a QUOTE" },
        referenceId: "SUBS-2",
      }),
      makeSubmission(form, {
        createdAt: at(30),
        data: { email: "spam@example.com", note: "buy now" },
        referenceId: "SUBS-3",
        spam: { score: 90, isSpam: true, signals: [] },
      }),
      makeSubmission(form, {
        createdAt: at(20),
        data: { email: "bob@example.com", tags: ["Quote", "x"] },
        referenceId: "SUBS-4",
      }),
      makeSubmission(form, { createdAt: at(10), data: { email: "eve@example.com", note: "latest" }, referenceId: "SUBS-5" }),
    ];
    await putSubmissions(subs);
    const [s1, s2, s3, s4, s5] = subs.map((s) => s.id) as [string, string, string, string, string];
    const get = (query: string) => api("GET", listPath(form.id, query), { token: owner.token });

    expect(ids(await get(""))).toEqual([s5, s4, s2, s1]);
    expect(ids(await get("?spam=false"))).toEqual([s5, s4, s2, s1]);
    expect(ids(await get("?spam=true"))).toEqual([s3]);
    expect(ids(await get("?spam=all"))).toEqual([s5, s4, s3, s2, s1]);

    // Pages of two, following the cursor, with the spam filter on.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await get(`?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.body.data.submissions.length).toBeLessThanOrEqual(2);
      seen.push(...ids(page));
      cursor = page.body.data.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual([s5, s4, s2, s1]);
    expect(pages).toBeLessThanOrEqual(3);

    // Dates: `from` and `to` inclusive; a date alone covers its whole UTC day.
    expect(
      ids(
        await get(
          `?from=${encodeURIComponent(subs[1]?.createdAt as string)}&to=${encodeURIComponent(subs[3]?.createdAt as string)}`,
        ),
      ),
    ).toEqual([s4, s2]);
    expect(ids(await get(`?spam=all&from=${encodeURIComponent(at(35))}`))).toEqual([s5, s4, s3]);
    expect(ids(await get(`?to=${encodeURIComponent(at(35))}`))).toEqual([s2, s1]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(ids(await get(`?from=${tomorrow}`))).toEqual([]);
    if (subs[0]?.createdAt.slice(0, 10) === today) expect(ids(await get(`?from=${today}&to=${today}`))).toEqual([s5, s4, s2, s1]);

    // Search (the form's search index, kept from the table stream) has its own tests: search.test.ts.
  });

  test.each([
    ["spam=maybe"],
    ["spam="],
    ["from=yesterday"],
    ["to=2026-13-01"],
    ["from=2026-01-02&to=2026-01-01"],
    ["limit=0"],
    ["limit=101"],
    ["q="],
    [`q=${"x".repeat(201)}`],
    ["cursor="],
  ])("GET ?%s is 400 VALIDATION_ERROR", async (query) => {
    const form = await insertForm(owner, siteId);
    const res = await api("GET", listPath(form.id, `?${query}`), { token: owner.token });
    expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  test("a cursor from another form, another range, or garbage is 400 INVALID_CURSOR", async () => {
    const a = await insertForm(owner, siteId);
    const b = await insertForm(owner, siteId);
    await putSubmissions([0, 1, 2].map((i) => makeSubmission(a, { createdAt: minutesAgo(10 + i) })));
    const page = await api("GET", listPath(a.id, "?limit=1"), { token: owner.token });
    const cursor = page.body.data.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    for (const path of [
      listPath(b.id, `?cursor=${cursor}`),
      listPath(a.id, `?cursor=${cursor}&from=${new Date().toISOString()}`),
      listPath(a.id, "?cursor=bm90LWEtY3Vyc29y"),
    ]) {
      const res = await api("GET", path, { token: owner.token });
      expect([path, res.status, res.body.error.code]).toEqual([path, 400, "INVALID_CURSOR"]);
    }
  });

  test("an unknown form or submission is 404", async () => {
    expect((await api("GET", listPath("form_0000000000000000000000"), { token: owner.token })).status).toBe(404);
    expect((await api("GET", subPath("sub_0000000000000000000000"), { token: owner.token })).status).toBe(404);
  });
});

describe("spam moderation", () => {
  test("unflagging a submission stored as spam releases it once: isSpam false and releasedAt on the item", async () => {
    const hook = await createHook(owner, siteId);
    const spam = await submitTo(hook, { email: "x@example.com", _hp: "I am a bot" });
    const stored = await storedItem(spam.submissionId);
    expect(stored).toEqual(expect.objectContaining({ isSpam: true, spam: expect.objectContaining({ isSpam: true }) }));
    expect(stored?.releasedAt).toBeUndefined();

    const unflagged = await api("PUT", subPath(spam.submissionId), { token: owner.token, body: { isSpam: false } });
    expect(unflagged.status).toBe(200);
    expect(unflagged.body.data.submission.spam.isSpam).toBe(false);
    const releasedAt = unflagged.body.data.submission.releasedAt as string;
    expect(releasedAt).toEqual(expect.any(String));
    const item = await storedItem(spam.submissionId);
    expect(item).toEqual(expect.objectContaining({ isSpam: false, releasedAt, type: "submission" }));
    // The intake verdict is kept as it was.
    expect(item?.spam.isSpam).toBe(true);

    // Flagging again and unflagging again never releases it a second time.
    const flagged = await api("PUT", subPath(spam.submissionId), { token: owner.token, body: { isSpam: true } });
    expect(flagged.body.data.submission.spam.isSpam).toBe(true);
    expect((await storedItem(spam.submissionId))?.isSpam).toBe(true);
    const again = await api("PUT", subPath(spam.submissionId), { token: owner.token, body: { isSpam: false } });
    expect(again.body.data.submission.releasedAt).toBe(releasedAt);
    expect((await storedItem(spam.submissionId))?.releasedAt).toBe(releasedAt);
    // Unflagging what is not flagged changes nothing.
    expect((await api("PUT", subPath(spam.submissionId), { token: owner.token, body: { isSpam: false } })).status).toBe(200);
    expect((await storedItem(spam.submissionId))?.releasedAt).toBe(releasedAt);
  });

  test("a submission stored as not spam, flagged then unflagged, is not released (it already went through)", async () => {
    const hook = await createHook(owner, siteId);
    const sent = await submitTo(hook, { email: "real@example.com" });
    const formId = await formOfHook(owner, siteId, hook);
    await api("PUT", subPath(sent.submissionId), { token: owner.token, body: { isSpam: true } });
    expect(ids(await api("GET", listPath(formId), { token: owner.token }))).not.toContain(sent.submissionId);
    expect(ids(await api("GET", listPath(formId, "?spam=true"), { token: owner.token }))).toContain(sent.submissionId);
    const res = await api("PUT", subPath(sent.submissionId), { token: owner.token, body: { isSpam: false } });
    expect(res.body.data.submission.releasedAt).toBeNull();
    const item = await storedItem(sent.submissionId);
    expect(item?.isSpam).toBe(false);
    expect(item?.releasedAt).toBeUndefined();
  });

  test.each([
    ["no isSpam", {}],
    ["a string isSpam", { isSpam: "false" }],
    ["an unknown field", { isSpam: false, data: {} }],
  ])("PUT with %s is 400 VALIDATION_ERROR", async (_label, body) => {
    const form = await insertForm(owner, siteId);
    const [s] = [makeSubmission(form)];
    await putSubmissions([s as ReturnType<typeof makeSubmission>]);
    const res = await api("PUT", subPath(s?.id as string), { token: owner.token, body });
    expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
  });
});

describe("deleting submissions", () => {
  test("DELETE removes one submission; then it is 404", async () => {
    const form = await insertForm(owner, siteId);
    const s = makeSubmission(form);
    await putSubmissions([s]);
    const res = await api("DELETE", subPath(s.id), { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toMatch(/deleted/i);
    expect(await storedItem(s.id)).toBeUndefined();
    expect((await api("GET", subPath(s.id), { token: owner.token })).status).toBe(404);
    expect((await api("DELETE", subPath(s.id), { token: owner.token })).status).toBe(404);
  });

  test("bulk delete removes the caller's ids and reports the rest as not found", async () => {
    const form = await insertForm(owner, siteId);
    const mine = Array.from({ length: 30 }, () => makeSubmission(form));
    const keep = makeSubmission(form);
    const stranger = await signupOwner("subs-bulk-stranger");
    const strangerForm = await insertForm(stranger, await createSite(stranger));
    const foreign = makeSubmission(strangerForm);
    await putSubmissions([...mine, keep, foreign]);
    const unknown = "sub_0000000000000000000000";
    const res = await api("POST", BULK, {
      token: owner.token,
      body: { ids: [...mine.map((s) => s.id), mine[0]?.id, foreign.id, unknown] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: 30, notFound: [foreign.id, unknown] });
    for (const s of mine) expect(await storedItem(s.id)).toBeUndefined();
    expect(await storedItem(keep.id)).toBeDefined();
    expect(await storedItem(foreign.id)).toBeDefined();
  });

  test.each([
    ["no ids", {}],
    ["an empty list", { ids: [] }],
    ["101 ids", { ids: Array.from({ length: 101 }, (_, i) => `sub_${i}`) }],
    ["a non-list", { ids: "sub_1" }],
    ["a non-string id", { ids: [1] }],
    ["an unknown field", { ids: ["sub_1"], all: true }],
  ])("bulk delete with %s is 400 VALIDATION_ERROR", async (_label, body) => {
    const res = await api("POST", BULK, { token: owner.token, body });
    expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  test("erasure deletes every submission of the site holding the address, in every form, and says how many", async () => {
    const own = await signupOwner("subs-erase");
    const site = await createSite(own);
    const otherSite = await createSite(own, "Other site");
    const [f1, f2, f3] = [
      await insertForm(own, site),
      await insertForm(own, site, { archivedAt: minutesAgo(1) }),
      await insertForm(own, otherSite),
    ] as Form[];
    const target = [
      makeSubmission(f1 as Form, { data: { email: "Erase.Me@Example.com", note: "hi" } }),
      makeSubmission(f1 as Form, { data: { contact: [" erase.me@example.com ", "x"] } }),
      makeSubmission(f2 as Form, { data: { work_email: "ERASE.ME@EXAMPLE.COM" } }),
      makeSubmission(f2 as Form, { data: { name: "X" }, metadata: replyToMetadata("erase.me@example.com") }),
    ];
    const kept = [
      makeSubmission(f1 as Form, { data: { email: "keep@example.com", note: "erase.me@example.com is my friend" } }),
      makeSubmission(f3 as Form, { data: { email: "erase.me@example.com" } }),
    ];
    await putSubmissions([...target, ...kept]);
    // One through intake too, into an auto-created form of the same site.
    const hook = await createHook(own, site);
    const viaIntake = await submitTo(hook, { email: "erase.me@example.com" });

    const res = await api("POST", erasePath(site), { token: own.token, body: { email: "erase.me@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: 5, complete: true, cursor: null });
    for (const s of target) expect(await storedItem(s.id)).toBeUndefined();
    expect(await storedItem(viaIntake.submissionId)).toBeUndefined();
    for (const s of kept) expect(await storedItem(s.id)).toBeDefined();

    const again = await api("POST", erasePath(site), { token: own.token, body: { email: "erase.me@example.com" } });
    expect(again.body.data).toEqual({ deleted: 0, complete: true, cursor: null });
  });

  test.each([
    ["no email", {}],
    ["an invalid email", { email: "erase.me" }],
    ["an unknown field", { email: "a@example.com", formId: "x" }],
    ["an empty cursor", { email: "a@example.com", cursor: "" }],
  ])("erasure with %s is 400 VALIDATION_ERROR", async (_label, body) => {
    const res = await api("POST", erasePath(siteId), { token: owner.token, body });
    expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  test("erasure with a garbage cursor is 400 INVALID_CURSOR", async () => {
    const res = await api("POST", erasePath(siteId), { token: owner.token, body: { email: "a@example.com", cursor: "garbage" } });
    expect([res.status, res.body.error.code]).toEqual([400, "INVALID_CURSOR"]);
  });
});

describe("submission permissions", () => {
  test("API keys need each route's permission; PUT needs submissions.delete", async () => {
    const own = await signupOwner("subs-keys");
    const site = await createSite(own);
    const form = await insertForm(own, site);
    const subs = Array.from({ length: 4 }, () => makeSubmission(form));
    await putSubmissions(subs);
    const all = ["submissions.view", "submissions.delete", "submissions.export"];
    const full = await apiKeyWith(own, all);
    const routes: [string, string, string, unknown?][] = [
      ["GET", listPath(form.id), "submissions.view"],
      ["GET", subPath(subs[0]?.id as string), "submissions.view"],
      ["PUT", subPath(subs[0]?.id as string), "submissions.delete", { isSpam: true }],
      ["DELETE", subPath(subs[1]?.id as string), "submissions.delete"],
      ["POST", BULK, "submissions.delete", { ids: [subs[2]?.id] }],
      ["POST", erasePath(site), "submissions.delete", { email: "nobody@example.com" }],
    ];
    for (const [method, path, permission, body] of routes) {
      const lacking = await apiKeyWith(
        own,
        all.filter((p) => p !== permission),
      );
      const denied = await api(method, path, { token: lacking, ...(body ? { body } : {}) });
      expect([method, path, denied.status, denied.body.error?.code]).toEqual([method, path, 403, "INSUFFICIENT_PERMISSION"]);
      expect(denied.body.error.message).toContain(permission);
      const allowed = await api(method, path, { token: full, ...(body ? { body } : {}) });
      expect([method, path, allowed.status]).toEqual([method, path, 200]);
    }
  });

  test("a member session reads submissions but cannot moderate or delete them (no submissions.delete)", async () => {
    const own = await signupOwner("subs-member");
    const site = await createSite(own);
    const member = await addMember(own, "member");
    const form = await insertForm(own, site);
    const s = makeSubmission(form);
    await putSubmissions([s]);
    expect((await api("GET", listPath(form.id), { token: member.token })).status).toBe(200);
    expect((await api("GET", subPath(s.id), { token: member.token })).status).toBe(200);
    for (const [method, path, body] of [
      ["PUT", subPath(s.id), { isSpam: true }],
      ["DELETE", subPath(s.id)],
      ["POST", BULK, { ids: [s.id] }],
      ["POST", erasePath(site), { email: "a@example.com" }],
    ] as const) {
      const denied = await api(method, path, { token: member.token, ...(body ? { body } : {}) });
      expect([method, path, denied.status, denied.body.error.code]).toEqual([method, path, 403, "INSUFFICIENT_PERMISSION"]);
      expect(denied.body.error.message).toContain("submissions.delete");
    }
    expect(await storedItem(s.id)).toEqual(expect.objectContaining({ isSpam: false }));
  });

  test("without credentials every submission route is 401", async () => {
    for (const [method, path] of [
      ["GET", listPath("form_x")],
      ["GET", subPath("sub_x")],
      ["PUT", subPath("sub_x")],
      ["DELETE", subPath("sub_x")],
      ["POST", BULK],
      ["POST", erasePath(siteId)],
    ] as const) {
      expect([method, path, (await api(method, path)).status]).toEqual([method, path, 401]);
    }
  });
});

describe("submission isolation", () => {
  test("every submission route answers 404 for another organization's form, submission or site, and changes nothing", async () => {
    const form = await insertForm(owner, siteId);
    const s = makeSubmission(form, { data: { email: "victim@example.com" }, spam: { score: 90, isSpam: true, signals: [] } });
    await putSubmissions([s]);
    const intruder = await signupOwner("subs-intruder");
    const intruderKey = await apiKeyWith(intruder, ["submissions.view", "submissions.delete", "submissions.export"]);
    for (const token of [intruder.token, intruderKey]) {
      for (const [method, path, body] of [
        ["GET", listPath(form.id)],
        ["GET", subPath(s.id)],
        ["PUT", subPath(s.id), { isSpam: false }],
        ["DELETE", subPath(s.id)],
        ["POST", erasePath(siteId), { email: "victim@example.com" }],
      ] as const) {
        const res = await api(method, path, { token, ...(body ? { body } : {}) });
        expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 404, "NOT_FOUND"]);
      }
      // Bulk deletion answers per id: another organization's id is not found, and stays.
      const bulk = await api("POST", BULK, { token, body: { ids: [s.id] } });
      expect([bulk.status, bulk.body.data]).toEqual([200, { deleted: 0, notFound: [s.id] }]);
    }
    const item = await storedItem(s.id);
    expect(item).toEqual(expect.objectContaining({ isSpam: true }));
    expect(item?.releasedAt).toBeUndefined();
  });
});
