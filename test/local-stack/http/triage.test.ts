import type { Form } from "../../../lib/store/forms";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { auditItems } from "../../support/audit-log-items";
import { apiKeyWith, insertForm } from "../../support/fixtures";
import { makeSubmission, minutesAgo, putSubmissions, storedItem } from "../../support/submissions";

const subPath = (id: string) => `/api/v1/submissions/${id}`;
const timelinePath = (id: string, query = "") => `/api/v1/submissions/${id}/timeline${query}`;
const BULK = "/api/v1/submissions/bulk-update";

let owner: Account;
let member: Account;
let admin: Account;
let form: Form;

beforeAll(async () => {
  owner = await signupOwner("triage");
  [member, admin] = await Promise.all([addMember(owner, "member", "triage-member"), addMember(owner, "admin", "triage-admin")]);
  const siteId = await createSite(owner);
  form = await insertForm(owner, siteId);
});

async function freshSubmission(overrides: Parameters<typeof makeSubmission>[1] = {}) {
  const s = makeSubmission(form, { createdAt: minutesAgo(5), ...overrides });
  await putSubmissions([s]);
  return s;
}

async function createTag(name: string, colour = "blue", token = owner.token): Promise<string> {
  const res = await api("POST", "/api/v1/tags", { token, body: { name, colour } });
  expect(res.status).toBe(201);
  return res.body.data.tag.id as string;
}

/** A lead's timeline is one chain of status moves that ends at its stored status: no wrong `from`. */
async function expectOneChain(id: string) {
  const timeline = await api("GET", timelinePath(id, "?limit=100"), { token: owner.token });
  const moves = (timeline.body.data.entries as { changes: { status: { from: string; to: string } } }[]).reverse();
  let at = "new";
  for (const { changes } of moves) {
    expect(changes.status.from).toBe(at);
    at = changes.status.to;
  }
  expect((await storedItem(id))?.status ?? "new").toBe(at);
}

describe("PATCH /api/v1/submissions/{id}", () => {
  test("sets status, owner and tags; the view, the timeline entry and the audit entry record the change", async () => {
    const s = await freshSubmission();
    const tag = await createTag(`hot-${s.id.slice(-6)}`);
    const res = await api("PATCH", subPath(s.id), {
      token: owner.token,
      body: { status: "contacted", ownerId: member.userId, tags: [tag], updatedAt: s.createdAt },
    });
    expect(res.status).toBe(200);
    const view = res.body.data.submission;
    expect(view).toMatchObject({ status: "contacted", ownerId: member.userId, tags: [tag], noteCount: 0 });
    expect(view.updatedAt > s.createdAt).toBe(true);
    // It reads back the same.
    const read = await api("GET", subPath(s.id), { token: member.token });
    expect(read.body.data.submission).toMatchObject({
      status: "contacted",
      ownerId: member.userId,
      tags: [tag],
      updatedAt: view.updatedAt,
    });

    const timeline = await api("GET", timelinePath(s.id), { token: member.token });
    expect(timeline.status).toBe(200);
    expect(timeline.body.data.entries).toEqual([
      {
        type: "submission_change",
        id: expect.stringMatching(/^chg_/),
        submissionId: s.id,
        formId: form.id,
        siteId: form.siteId,
        orgId: owner.orgId,
        at: view.updatedAt,
        actor: { type: "member", id: owner.userId, name: expect.any(String) },
        changes: {
          status: { from: "new", to: "contacted" },
          ownerId: { from: null, to: member.userId },
          tags: { added: [tag], removed: [] },
        },
      },
    ]);
    const audit = (await auditItems(owner.orgId, "submission.updated")).filter((e) => e.target.id === s.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]?.details).toMatchObject({
      statusFrom: "new",
      statusTo: "contacted",
      ownerFrom: null,
      ownerTo: member.userId,
      tagsAdded: tag,
    });
  });

  test("setting what it has is a no-op: 200, no timeline entry", async () => {
    const s = await freshSubmission();
    const res = await api("PATCH", subPath(s.id), { token: owner.token, body: { status: "new", ownerId: null, tags: [] } });
    expect(res.status).toBe(200);
    expect(res.body.data.submission.updatedAt).toBe(s.createdAt);
    const timeline = await api("GET", timelinePath(s.id), { token: owner.token });
    expect(timeline.body.data.entries).toEqual([]);
    expect((await storedItem(s.id))?.triagedAt).toBeUndefined();
  });

  test("a stale updatedAt is 409 CONFLICT and writes nothing", async () => {
    const s = await freshSubmission();
    const first = await api("PATCH", subPath(s.id), {
      token: owner.token,
      body: { status: "contacted", updatedAt: s.createdAt },
    });
    expect(first.status).toBe(200);
    const stale = await api("PATCH", subPath(s.id), {
      token: owner.token,
      body: { status: "qualified", updatedAt: s.createdAt },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("CONFLICT");
    expect((await storedItem(s.id))?.status).toBe("contacted");
  });

  test("a closed lead back to new is 409 INVALID_STATUS_CHANGE; other moves are allowed", async () => {
    const s = await freshSubmission();
    expect((await api("PATCH", subPath(s.id), { token: owner.token, body: { status: "won" } })).status).toBe(200);
    const back = await api("PATCH", subPath(s.id), { token: owner.token, body: { status: "new" } });
    expect(back.status).toBe(409);
    expect(back.body.error.code).toBe("INVALID_STATUS_CHANGE");
    expect((await api("PATCH", subPath(s.id), { token: owner.token, body: { status: "contacted" } })).status).toBe(200);
    expect((await api("PATCH", subPath(s.id), { token: owner.token, body: { status: "new" } })).status).toBe(200);
  });

  test("a spam submission cannot be triaged: 409 SUBMISSION_IS_SPAM", async () => {
    const s = await freshSubmission({ spam: { score: 90, isSpam: true, signals: [] } });
    const res = await api("PATCH", subPath(s.id), { token: owner.token, body: { status: "contacted" } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("SUBMISSION_IS_SPAM");
  });

  test("owner rules: a member takes an unowned lead and gives up their own, but needs submissions.delete for the rest", async () => {
    const s = await freshSubmission();
    const toOther = await api("PATCH", subPath(s.id), { token: member.token, body: { ownerId: admin.userId } });
    expect(toOther.status).toBe(403);
    expect(toOther.body.error.code).toBe("INSUFFICIENT_PERMISSION");
    expect((await api("PATCH", subPath(s.id), { token: member.token, body: { ownerId: member.userId } })).status).toBe(200);
    expect((await api("PATCH", subPath(s.id), { token: member.token, body: { ownerId: null } })).status).toBe(200);
    // An admin's lead: the member may neither take it nor clear it.
    expect((await api("PATCH", subPath(s.id), { token: admin.token, body: { ownerId: admin.userId } })).status).toBe(200);
    const take = await api("PATCH", subPath(s.id), { token: member.token, body: { ownerId: member.userId } });
    expect(take.status).toBe(403);
    const clear = await api("PATCH", subPath(s.id), { token: member.token, body: { ownerId: null } });
    expect(clear.status).toBe(403);
    // The owner (submissions.delete) reassigns.
    expect((await api("PATCH", subPath(s.id), { token: owner.token, body: { ownerId: member.userId } })).status).toBe(200);
  });

  test("the owner must be a member (422 OWNER_NOT_A_MEMBER); a tag must exist (422 UNKNOWN_TAG); at most 10 tags", async () => {
    const s = await freshSubmission();
    const stranger = await signupOwner("triage-stranger");
    const notMember = await api("PATCH", subPath(s.id), { token: owner.token, body: { ownerId: stranger.userId } });
    expect(notMember.status).toBe(422);
    expect(notMember.body.error.code).toBe("OWNER_NOT_A_MEMBER");
    const unknown = await api("PATCH", subPath(s.id), { token: owner.token, body: { tags: ["tag_doesnotexist"] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe("UNKNOWN_TAG");
    // A foreign organization's tag is unknown here.
    const foreignTag = await createTag("theirs", "red", stranger.token);
    const foreign = await api("PATCH", subPath(s.id), { token: owner.token, body: { tags: [foreignTag] } });
    expect(foreign.status).toBe(422);
    const eleven = await api("PATCH", subPath(s.id), {
      token: owner.token,
      body: { tags: Array.from({ length: 11 }, (_, i) => `tag_${i}`) },
    });
    expect(eleven.status).toBe(400);
    expect(eleven.body.error.code).toBe("VALIDATION_ERROR");
    expect((await storedItem(s.id))?.triagedAt).toBeUndefined();
  });

  test("another organization's submission is 404; hostile bodies are 400", async () => {
    const stranger = await signupOwner("triage-foreign");
    const s = await freshSubmission();
    const foreign = await api("PATCH", subPath(s.id), { token: stranger.token, body: { status: "won" } });
    expect(foreign.status).toBe(404);
    for (const body of [
      { status: "done" },
      { status: "won", extra: 1 },
      { tags: ["a", "a"] },
      { ownerId: 5 },
      { ownerId: "x".repeat(65) },
      { updatedAt: "yesterday" },
      { tags: "tag_x" },
    ]) {
      const res = await api("PATCH", subPath(s.id), { token: owner.token, body });
      expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    }
    expect((await api("PATCH", subPath("sub_missing"), { token: owner.token, body: { status: "won" } })).status).toBe(404);
  });

  test("API keys: with forms.edit they set status and tags; owner changes need submissions.delete", async () => {
    const s = await freshSubmission();
    const viewOnly = await apiKeyWith(owner, ["submissions.view"]);
    const editor = await apiKeyWith(owner, ["forms.edit", "submissions.view"], "CRM sync");
    const full = await apiKeyWith(owner, ["forms.edit", "submissions.delete"], "Router");
    expect((await api("PATCH", subPath(s.id), { token: viewOnly, body: { status: "won" } })).status).toBe(403);
    const byKey = await api("PATCH", subPath(s.id), { token: editor, body: { status: "qualified" } });
    expect(byKey.status).toBe(200);
    expect((await api("PATCH", subPath(s.id), { token: editor, body: { ownerId: member.userId } })).status).toBe(403);
    expect((await api("PATCH", subPath(s.id), { token: full, body: { ownerId: member.userId } })).status).toBe(200);
    // Each entry names the key as it was called at the time (not "API key", which the dashboard would say twice).
    const timeline = await api("GET", timelinePath(s.id), { token: editor });
    expect(timeline.body.data.entries.map((e: { actor: unknown }) => e.actor)).toEqual([
      { type: "api_key", id: expect.stringMatching(/^key_/), name: "Router" },
      { type: "api_key", id: expect.stringMatching(/^key_/), name: "CRM sync" },
    ]);
  });
});

describe("POST /api/v1/submissions/bulk-update", () => {
  test("changes the caller's submissions; foreign and unknown ids are notFound; refusals are listed", async () => {
    const stranger = await signupOwner("triage-bulk-foreign");
    const strangerSite = await createSite(stranger);
    const theirForm = await insertForm(stranger, strangerSite);
    const theirs = makeSubmission(theirForm);
    const [a, b, won, spam, same] = [
      makeSubmission(form),
      makeSubmission(form),
      makeSubmission(form),
      makeSubmission(form, { spam: { score: 90, isSpam: true, signals: [] } }),
      makeSubmission(form),
    ];
    await putSubmissions([theirs, a, b, won, spam, same]);
    expect((await api("PATCH", subPath(won.id), { token: owner.token, body: { status: "won" } })).status).toBe(200);
    expect(
      (await api("PATCH", subPath(same.id), { token: owner.token, body: { status: "new", ownerId: member.userId } })).status,
    ).toBe(200);
    const tag = await createTag(`bulk-${a.id.slice(-6)}`);
    const res = await api("POST", BULK, {
      token: owner.token,
      body: {
        ids: [a.id, b.id, won.id, spam.id, theirs.id, "sub_unknown", same.id, a.id],
        status: "new",
        ownerId: member.userId,
        addTags: [tag],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.updated).toBe(3);
    expect(res.body.data.unchanged).toBe(0);
    expect(res.body.data.notFound.sort()).toEqual([theirs.id, "sub_unknown"].sort());
    expect(res.body.data.rejected).toEqual([
      { id: won.id, code: "INVALID_STATUS_CHANGE" },
      { id: spam.id, code: "SUBMISSION_IS_SPAM" },
    ]);
    expect(await storedItem(a.id)).toMatchObject({ status: "new", ownerId: member.userId, tags: [tag] });
    expect(await storedItem(same.id)).toMatchObject({ tags: [tag] });
    expect((await storedItem(theirs.id))?.triagedAt).toBeUndefined();
    const entries = await auditItems(owner.orgId, "submissions.updated");
    const entry = entries.find((e) => String(e.details.ids).includes(a.id));
    expect(entry?.details).toMatchObject({ count: 3, ownerId: member.userId, addTags: tag });
    // Taking the same again changes nothing.
    const again = await api("POST", BULK, { token: owner.token, body: { ids: [a.id, b.id], ownerId: member.userId } });
    expect(again.body.data).toEqual({ updated: 0, unchanged: 2, notFound: [], rejected: [] });
  });

  test("a member's take of leads others own is rejected per lead; giving to someone else is 403 as a whole", async () => {
    const [mine, free] = [makeSubmission(form), makeSubmission(form)];
    await putSubmissions([mine, free]);
    expect((await api("PATCH", subPath(mine.id), { token: admin.token, body: { ownerId: admin.userId } })).status).toBe(200);
    const take = await api("POST", BULK, { token: member.token, body: { ids: [mine.id, free.id], ownerId: member.userId } });
    expect(take.status).toBe(200);
    expect(take.body.data).toEqual({
      updated: 1,
      unchanged: 0,
      notFound: [],
      rejected: [{ id: mine.id, code: "INSUFFICIENT_PERMISSION" }],
    });
    const give = await api("POST", BULK, { token: member.token, body: { ids: [free.id], ownerId: admin.userId } });
    expect(give.status).toBe(403);
    const unknownTag = await api("POST", BULK, { token: owner.token, body: { ids: [free.id], addTags: ["tag_nope"] } });
    expect([unknownTag.status, unknownTag.body.error.code]).toEqual([422, "UNKNOWN_TAG"]);
    const tooMany = await api("POST", BULK, {
      token: owner.token,
      body: { ids: Array.from({ length: 101 }, (_, i) => `sub_${i}`), status: "won" },
    });
    expect(tooMany.status).toBe(400);
    const empty = await api("POST", BULK, { token: owner.token, body: { ids: [], status: "won" } });
    expect(empty.status).toBe(400);
  });
});

describe("POST /api/v1/submissions/bulk-update with API keys", () => {
  test("submissions.view alone is 403; forms.edit sets status and tags; owner changes need submissions.delete", async () => {
    const [a, b] = [makeSubmission(form), makeSubmission(form)];
    await putSubmissions([a, b]);
    const tag = await createTag(`keys-${a.id.slice(-6)}`);
    const viewOnly = await apiKeyWith(owner, ["submissions.view"]);
    const editor = await apiKeyWith(owner, ["forms.edit", "submissions.view"], "CRM sync");
    const full = await apiKeyWith(owner, ["forms.edit", "submissions.delete"], "Router");

    const refused = await api("POST", BULK, { token: viewOnly, body: { ids: [a.id, b.id], status: "won" } });
    expect([refused.status, refused.body.error.code]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
    expect((await storedItem(a.id))?.triagedAt).toBeUndefined();

    const set = await api("POST", BULK, { token: editor, body: { ids: [a.id, b.id], status: "contacted", addTags: [tag] } });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ updated: 2, unchanged: 0, notFound: [], rejected: [] });
    expect(await storedItem(a.id)).toMatchObject({ status: "contacted", tags: [tag] });
    expect(await storedItem(b.id)).toMatchObject({ status: "contacted", tags: [tag] });
    const timeline = await api("GET", timelinePath(a.id), { token: editor });
    expect(timeline.body.data.entries[0].actor).toEqual({
      type: "api_key",
      id: expect.stringMatching(/^key_/),
      name: "CRM sync",
    });

    // A key has no self: giving leads to a member is 403 as a whole without submissions.delete...
    const give = await api("POST", BULK, { token: editor, body: { ids: [a.id, b.id], ownerId: member.userId } });
    expect([give.status, give.body.error.code]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
    expect((await storedItem(a.id))?.ownerId).toBeUndefined();
    // ...and with it, allowed.
    const given = await api("POST", BULK, { token: full, body: { ids: [a.id], ownerId: member.userId } });
    expect(given.body.data).toEqual({ updated: 1, unchanged: 0, notFound: [], rejected: [] });
    // Clearing an owned lead is refused per lead; a lead without an owner is unchanged.
    const clear = await api("POST", BULK, { token: editor, body: { ids: [a.id, b.id], ownerId: null } });
    expect(clear.status).toBe(200);
    expect(clear.body.data).toEqual({
      updated: 0,
      unchanged: 1,
      notFound: [],
      rejected: [{ id: a.id, code: "INSUFFICIENT_PERMISSION" }],
    });
    expect((await storedItem(a.id))?.ownerId).toBe(member.userId);
  });
});

describe("concurrency and transactions", () => {
  test("a lead changed between a bulk update's read and its write is rejected as CONFLICT; the rest is written", async () => {
    // Bulk updates of the same leads at once: each reads them, and the first write wins. The
    // others find a lead's triage changed since their read: that lead is listed as CONFLICT and
    // the rest of their selection is still written. Rounds repeat until one has raced.
    let conflicts = 0;
    for (let round = 0; round < 8 && conflicts === 0; round++) {
      const leads = [makeSubmission(form), makeSubmission(form), makeSubmission(form)];
      await putSubmissions(leads);
      const ids = leads.map((l) => l.id);
      const statuses = ["contacted", "qualified", "won", "lost", "contacted", "qualified"];
      const answers = await Promise.all(
        statuses.map((status) => api("POST", BULK, { token: owner.token, body: { ids, status } })),
      );
      for (const res of answers) {
        // Every lead is accounted for, refused only as CONFLICT (or, when DynamoDB's own
        // transaction conflicts outlast the retries, the request is 409 CONFLICT as a whole).
        if (res.status === 409) {
          expect(res.body.error.code).toBe("CONFLICT");
          continue;
        }
        expect(res.status).toBe(200);
        const data = res.body.data as { updated: number; unchanged: number; notFound: string[]; rejected: { code: string }[] };
        expect(data.notFound).toEqual([]);
        expect(data.updated + data.unchanged + data.rejected.length).toBe(ids.length);
        for (const r of data.rejected) expect(r.code).toBe("CONFLICT");
        conflicts += data.rejected.length;
      }
      for (const id of ids) await expectOneChain(id);
    }
    expect(conflicts).toBeGreaterThan(0);
  });

  test("concurrent changes never record a wrong `from`: the timeline is one chain, losers answer 409", async () => {
    const s = await freshSubmission();
    const wanted = ["contacted", "qualified", "won", "lost", "contacted", "qualified"];
    const answers = await Promise.all(
      wanted.map((status) => api("PATCH", subPath(s.id), { token: owner.token, body: { status } })),
    );
    for (const res of answers) expect([200, 409]).toContain(res.status);
    await expectOneChain(s.id);
  });

  test("a bulk change of 45 writes two transactions, each with its own audit entry", async () => {
    const many = Array.from({ length: 45 }, () => makeSubmission(form));
    await putSubmissions(many);
    const res = await api("POST", BULK, { token: owner.token, body: { ids: many.map((m) => m.id), status: "qualified" } });
    expect(res.body.data).toEqual({ updated: 45, unchanged: 0, notFound: [], rejected: [] });
    const mine = new Set(many.map((m) => m.id));
    const entries = (await auditItems(owner.orgId, "submissions.updated")).filter((e) =>
      String(e.details.ids)
        .split(" ")
        .every((id) => mine.has(id)),
    );
    expect(entries.map((e) => e.details.count).sort()).toEqual([40, 5]);
    expect(entries.every((e) => e.target.type === "form" && e.target.id === form.id)).toBe(true);
  });

  test("hostile bulk bodies are 400", async () => {
    for (const body of [
      { ids: "sub_x", status: "won" },
      { ids: [5], status: "won" },
      { ids: ["x".repeat(65)], status: "won" },
      { ids: ["sub_x"], addTags: ["tag_a", "tag_a"] },
      { ids: ["sub_x"], addTags: Array.from({ length: 11 }, (_, i) => `tag_${i}`) },
      { ids: ["sub_x"], status: "archived" },
      { ids: ["sub_x"], tags: ["tag_a"] },
    ]) {
      const res = await api("POST", BULK, { token: owner.token, body });
      expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    }
  });
});

describe("the timeline", () => {
  test("newest first, paginated with a cursor", async () => {
    const s = await freshSubmission();
    for (const status of ["contacted", "qualified", "won"]) {
      expect((await api("PATCH", subPath(s.id), { token: owner.token, body: { status } })).status).toBe(200);
    }
    const first = await api("GET", timelinePath(s.id, "?limit=2"), { token: member.token });
    expect(first.body.data.entries.map((e: { changes: { status: { to: string } } }) => e.changes.status.to)).toEqual([
      "won",
      "qualified",
    ]);
    expect(first.body.data.nextCursor).toEqual(expect.any(String));
    const rest = await api("GET", timelinePath(s.id, `?limit=2&cursor=${first.body.data.nextCursor}`), { token: member.token });
    expect(rest.body.data.entries.map((e: { changes: { status: { to: string } } }) => e.changes.status.to)).toEqual([
      "contacted",
    ]);
    const bad = await api("GET", timelinePath(s.id, "?cursor=notacursor"), { token: member.token });
    expect([bad.status, bad.body.error.code]).toEqual([400, "INVALID_CURSOR"]);
    const stranger = await signupOwner("triage-timeline-foreign");
    expect((await api("GET", timelinePath(s.id), { token: stranger.token })).status).toBe(404);
  });
});
