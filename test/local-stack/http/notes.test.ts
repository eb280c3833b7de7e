import type { Form } from "../../../lib/store/forms";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { auditItems } from "../../support/audit-log-items";
import { eventually } from "../../support/eventually";
import { apiKeyWith, insertForm } from "../../support/fixtures";
import { createHook, makeSubmission, putSubmissions, storedItem, submitTo } from "../../support/submissions";
import { submissionPartitionItems } from "../../support/triage";

const notesPath = (id: string) => `/api/v1/submissions/${id}/notes`;
const notePath = (id: string, noteId: string) => `/api/v1/submissions/${id}/notes/${noteId}`;

let owner: Account;
let member: Account;
let other: Account;
let form: Form;
let siteId: string;

beforeAll(async () => {
  owner = await signupOwner("notes");
  [member, other] = await Promise.all([addMember(owner, "member", "notes-member"), addMember(owner, "member", "notes-other")]);
  siteId = await createSite(owner);
  form = await insertForm(owner, siteId);
});

async function fresh() {
  const s = makeSubmission(form);
  await putSubmissions([s]);
  return s;
}

async function addNote(token: string, submissionId: string, body = "Called, left a message") {
  const res = await api("POST", notesPath(submissionId), { token, body: { body } });
  expect(res.status).toBe(201);
  return res.body.data.note as { id: string; updatedAt: string; authorId: string; body: string };
}

describe("notes", () => {
  test("a member adds, lists, edits and deletes their note; the count, timeline and audit log follow", async () => {
    const s = await fresh();
    const note = await addNote(member.token, s.id, "  Called back at 3pm  ");
    expect(note).toMatchObject({ submissionId: s.id, authorId: member.userId, body: "Called back at 3pm" });
    const second = await addNote(owner.token, s.id, "Second");
    const list = await api("GET", notesPath(s.id), { token: member.token });
    expect(list.body.data.notes.map((n: { id: string }) => n.id)).toEqual([note.id, second.id]);
    expect((await api("GET", `/api/v1/submissions/${s.id}`, { token: member.token })).body.data.submission.noteCount).toBe(2);

    const edited = await api("PUT", notePath(s.id, note.id), {
      token: member.token,
      body: { body: "Edited", updatedAt: note.updatedAt },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.note).toMatchObject({ id: note.id, body: "Edited" });
    expect(edited.body.data.note.updatedAt > note.updatedAt).toBe(true);
    const stale = await api("PUT", notePath(s.id, note.id), {
      token: member.token,
      body: { body: "Again", updatedAt: note.updatedAt },
    });
    expect([stale.status, stale.body.error.code]).toEqual([409, "CONFLICT"]);

    expect((await api("DELETE", notePath(s.id, note.id), { token: member.token })).status).toBe(200);
    expect((await storedItem(s.id))?.noteCount).toBe(1);
    const timeline = await api("GET", `/api/v1/submissions/${s.id}/timeline`, { token: member.token });
    expect(timeline.body.data.entries.map((e: { note: { action: string } }) => e.note.action)).toEqual([
      "deleted",
      "edited",
      "added",
      "added",
    ]);
    expect(timeline.body.data.entries[0]).toMatchObject({
      type: "submission_note_event",
      actor: { type: "member", id: member.userId },
    });
    for (const action of ["submission.note_added", "submission.note_edited", "submission.note_deleted"]) {
      expect((await auditItems(owner.orgId, action)).some((e) => e.details.submissionId === s.id)).toBe(true);
    }
  });

  test("only the author edits; the author or an owner/admin deletes", async () => {
    const s = await fresh();
    const note = await addNote(member.token, s.id);
    const edit = await api("PUT", notePath(s.id, note.id), { token: other.token, body: { body: "mine now" } });
    expect([edit.status, edit.body.error.code]).toEqual([403, "NOT_NOTE_AUTHOR"]);
    const ownerEdit = await api("PUT", notePath(s.id, note.id), { token: owner.token, body: { body: "mine now" } });
    expect(ownerEdit.status).toBe(403);
    const del = await api("DELETE", notePath(s.id, note.id), { token: other.token });
    expect([del.status, del.body.error.code]).toEqual([403, "NOT_NOTE_AUTHOR"]);
    expect((await api("DELETE", notePath(s.id, note.id), { token: owner.token })).status).toBe(200);
    expect((await api("DELETE", notePath(s.id, note.id), { token: owner.token })).status).toBe(404);
  });

  test("API keys read notes but cannot write them (403 SESSION_REQUIRED)", async () => {
    const s = await fresh();
    const note = await addNote(member.token, s.id);
    const key = await apiKeyWith(owner, ["submissions.view", "submissions.delete"]);
    expect((await api("GET", notesPath(s.id), { token: key })).status).toBe(200);
    for (const [method, path] of [
      ["POST", notesPath(s.id)],
      ["PUT", notePath(s.id, note.id)],
      ["DELETE", notePath(s.id, note.id)],
    ] as const) {
      const res = await api(method, path, { token: key, body: method === "DELETE" ? undefined : { body: "x" } });
      expect([res.status, res.body.error.code]).toEqual([403, "SESSION_REQUIRED"]);
    }
  });

  test("a key without submissions.view reads neither the notes nor the timeline (403)", async () => {
    const s = await fresh();
    await addNote(member.token, s.id);
    const key = await apiKeyWith(owner, ["forms.view", "forms.edit"]);
    for (const path of [notesPath(s.id), `/api/v1/submissions/${s.id}/timeline`]) {
      const res = await api("GET", path, { token: key });
      expect([res.status, res.body.error.code]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
      expect(res.text).not.toContain("Called, left a message");
    }
  });

  test("bad input is 4xx; another organization's submission is 404; at most 200 notes", async () => {
    const s = await fresh();
    for (const body of [{ body: "" }, { body: "   " }, { body: "x".repeat(2001) }, { body: 5 }, { body: "ok", extra: true }]) {
      const res = await api("POST", notesPath(s.id), { token: member.token, body });
      expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    }
    const stranger = await signupOwner("notes-foreign");
    expect((await api("POST", notesPath(s.id), { token: stranger.token, body: { body: "hi" } })).status).toBe(404);
    expect((await api("GET", notesPath(s.id), { token: stranger.token })).status).toBe(404);
    expect((await api("PUT", notePath(s.id, "note_missing"), { token: member.token, body: { body: "x" } })).status).toBe(404);
    // A submission at its limit (its count set as 200 notes would have left it).
    const full = makeSubmission(form);
    await putSubmissions([{ ...full, noteCount: 200 } as typeof full]);
    const res = await api("POST", notesPath(full.id), { token: member.token, body: { body: "one more" } });
    expect([res.status, res.body.error.code]).toEqual([403, "NOTE_LIMIT_REACHED"]);
  });

  test("notes and timeline entries follow a deleted submission out (the bookkeeper's follow-out)", async () => {
    // Through intake: the bookkeeper reads the stream images of a submission intake stored.
    const hook = await createHook(owner, siteId);
    const { submissionId } = await submitTo(hook, { name: "Ada", email: "ada@example.com" });
    await addNote(member.token, submissionId);
    const patched = await api("PATCH", `/api/v1/submissions/${submissionId}`, {
      token: owner.token,
      body: { status: "contacted" },
    });
    expect(patched.status).toBe(200);
    // The submission, its note, the note's and the change's timeline entries.
    expect(await submissionPartitionItems(submissionId)).toHaveLength(4);
    expect((await api("DELETE", `/api/v1/submissions/${submissionId}`, { token: owner.token })).status).toBe(200);
    await eventually("the notes and timeline deleted", async () => (await submissionPartitionItems(submissionId)).length === 0);
  });
});
