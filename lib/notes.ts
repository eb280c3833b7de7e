import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { AppError, notFound } from "./errors";
import { nextTimestamp } from "./forms";
import { newId, nowIso } from "./ids";
import { deleteNote, getNote, insertNote, listNotes, type Note, updateNote } from "./store/notes";
import type { NoteAction, NoteEventEntry } from "./store/timeline";
import { findSubmissionAndForm } from "./submissions";
import { timelineActor } from "./triage";
import * as z from "./validation";

/**
 * Notes on a submission (docs/triage.md, "Notes"): short texts by members, each with its author
 * and time. Any member who can view submissions writes them; the author edits or deletes their
 * own; owners and admins (submissions.delete) delete any. Dashboard sessions only: a note is a
 * person's word. Each write carries its timeline entry and audit entry in one transaction.
 */

/** At most this many notes per submission. */
export const MAX_NOTES = 200;
export const MAX_NOTE_LENGTH = 2000;

export const noteBody = /* @__PURE__ */ z.shared(() => z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_NOTE_LENGTH)));

const noteView = (n: Note) => ({
  id: n.id,
  submissionId: n.submissionId,
  authorId: n.authorId,
  body: n.body,
  createdAt: n.createdAt,
  updatedAt: n.updatedAt,
});

/** Notes are a person's: the routes are session-only (functions/routes.ts), so the principal is a member. */
function memberOf(principal: Principal) {
  if (principal.kind !== "session") throw new AppError("SESSION_REQUIRED", "Notes are written from a dashboard session");
  return principal;
}

function noteEvent(
  principal: Principal,
  submission: { id: string; orgId: string },
  noteId: string,
  action: NoteAction,
): NoteEventEntry {
  return {
    type: "submission_note_event",
    id: newId("change"),
    submissionId: submission.id,
    orgId: submission.orgId,
    at: nowIso(),
    actor: timelineActor(principal),
    note: { id: noteId, action },
  };
}

const noteTarget = (note: { id: string; submissionId: string }) => ({ type: "note", id: note.id, name: note.submissionId });

export async function readNotes(principal: Principal, submissionId: string) {
  const { submission } = await findSubmissionAndForm(principal, submissionId);
  return { notes: (await listNotes(submission.id)).map(noteView) };
}

export async function addNote(principal: Principal, sourceIp: string, submissionId: string, body: string) {
  const member = memberOf(principal);
  const { submission } = await findSubmissionAndForm(principal, submissionId);
  const now = nowIso();
  const note: Note = {
    id: newId("note"),
    submissionId: submission.id,
    orgId: submission.orgId,
    authorId: member.userId,
    body,
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await insertNote(
    note,
    MAX_NOTES,
    noteEvent(principal, submission, note.id, "added"),
    audited(principal, sourceIp, "submission.note_added", noteTarget(note), { submissionId: submission.id }),
  );
  if (outcome === "NOT_FOUND") throw notFound("Submission");
  if (outcome === "LIMIT_REACHED") throw new AppError("NOTE_LIMIT_REACHED", `A submission holds at most ${MAX_NOTES} notes`);
  return { note: noteView(note) };
}

async function findNote(principal: Principal, submissionId: string, noteId: string) {
  const [{ submission }, note] = await Promise.all([
    findSubmissionAndForm(principal, submissionId),
    getNote(submissionId, noteId),
  ]);
  if (!note || note.orgId !== principal.orgId) throw notFound("Note");
  return { submission, note };
}

const notAuthor = () => new AppError("NOT_NOTE_AUTHOR", "Only the note's author can change it");
const conflict = () => new AppError("CONFLICT", "The note changed since it was read; reload it and apply your changes again");

/** The author edits their own note; `updatedAt`: 409 CONFLICT when it changed since. */
export async function editNote(
  principal: Principal,
  sourceIp: string,
  submissionId: string,
  noteId: string,
  body: string,
  updatedAt?: string,
) {
  const member = memberOf(principal);
  const { submission, note } = await findNote(principal, submissionId, noteId);
  if (note.authorId !== member.userId) throw notAuthor();
  if (updatedAt !== undefined && Date.parse(updatedAt) !== Date.parse(note.updatedAt)) throw conflict();
  const saved = await updateNote(
    note,
    body,
    nextTimestamp(note.updatedAt),
    noteEvent(principal, submission, note.id, "edited"),
    audited(principal, sourceIp, "submission.note_edited", noteTarget(note), { submissionId: submission.id }),
  );
  if (saved === "NOT_FOUND") throw notFound("Note");
  if (saved === "NOT_AUTHOR") throw notAuthor();
  if (saved === "CONFLICT") throw conflict();
  return { note: noteView(saved) };
}

/** The author deletes their own note; a member holding submissions.delete (owners, admins) any. */
export async function removeNote(principal: Principal, sourceIp: string, submissionId: string, noteId: string) {
  const member = memberOf(principal);
  const { submission, note } = await findNote(principal, submissionId, noteId);
  const anyNote = member.permissions.has("submissions.delete");
  if (!anyNote && note.authorId !== member.userId) throw notAuthor();
  const outcome = await deleteNote(
    { submissionId: submission.id, orgId: submission.orgId, noteId: note.id, ...(anyNote ? {} : { authorId: member.userId }) },
    noteEvent(principal, submission, note.id, "deleted"),
    audited(principal, sourceIp, "submission.note_deleted", noteTarget(note), {
      submissionId: submission.id,
      authorId: note.authorId,
    }),
  );
  if (outcome === "NOT_FOUND") throw notFound("Note");
  if (outcome === "NOT_AUTHOR") throw notAuthor();
  return { message: "Note deleted" };
}
