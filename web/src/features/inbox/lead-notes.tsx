import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError, submitWith, TextAreaField } from "../../components/ui/field";
import { Muted } from "../../components/ui/text";
import { mayDeleteNote, useMe } from "../../lib/access";
import { formatAgo, formatDateTime } from "../../lib/format";
import { ConflictAlert, isConflict } from "./lead-conflict";
import { addNote, deleteNote, editNote, type Note, notesQuery } from "./triage";

/** A lead's notes, oldest first: add one; edit or delete your own; owners and admins delete any. */
export function Notes({ submissionId, name }: { submissionId: string; name: (userId: string) => string }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const notes = useQuery(notesQuery(submissionId));
  const [draft, setDraft] = useState("");
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.submissions.notes(submissionId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.submissions.timeline(submissionId) }),
    ]);
  const add = useMutation({
    mutationFn: (body: string) => addNote(submissionId, body),
    onSuccess: async () => {
      setDraft("");
      await refresh();
    },
  });
  return (
    <section aria-labelledby="notes-heading">
      <h3 id="notes-heading" className="mb-2 font-medium">
        Notes
      </h3>
      {notes.isError && <FormError message={notes.error.message} />}
      {notes.data?.length === 0 && <Muted>No notes yet.</Muted>}
      <ul className="flex flex-col gap-3">
        {(notes.data ?? []).map((note) => (
          <NoteItem
            key={note.id}
            submissionId={submissionId}
            note={note}
            author={name(note.authorId)}
            own={note.authorId === me.user.id}
            mayDelete={mayDeleteNote(me, note)}
            onChanged={refresh}
          />
        ))}
      </ul>
      <form
        className="mt-3 flex flex-col gap-2"
        onSubmit={submitWith(() => {
          if (draft.trim()) add.mutate(draft.trim());
        })}
      >
        <TextAreaField
          label="Add a note"
          value={draft}
          maxLength={2000}
          rows={3}
          error={apiError(add.error)?.field("body")}
          onChange={(e) => setDraft(e.target.value)}
        />
        <FormError message={apiError(add.error)?.formMessage} />
        <div>
          <Button type="submit" disabled={add.isPending || !draft.trim()}>
            {add.isPending ? "Adding…" : "Add note"}
          </Button>
        </div>
      </form>
    </section>
  );
}

function NoteItem({
  submissionId,
  note,
  author,
  own,
  mayDelete,
  onChanged,
}: {
  submissionId: string;
  note: Note;
  author: string;
  own: boolean;
  mayDelete: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const [editing, setEditing] = useState<string | undefined>();
  const edit = useMutation({
    mutationFn: (body: string) => editNote(submissionId, note, body),
    onSuccess: async () => {
      setEditing(undefined);
      await onChanged();
    },
  });
  const remove = useMutation({ mutationFn: () => deleteNote(submissionId, note.id), onSuccess: onChanged });
  const error = apiError(edit.error ?? remove.error);
  return (
    <li className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
      <p className="text-xs text-slate-700 dark:text-slate-300">
        <span className="font-medium">{author === "you" ? "You" : author}</span>,{" "}
        <time dateTime={note.createdAt} title={formatDateTime(note.createdAt)}>
          {formatAgo(note.createdAt)}
        </time>
        {note.updatedAt !== note.createdAt && " (edited)"}
      </p>
      {isConflict(edit.error) && (
        <ConflictAlert
          what="note"
          onReload={() => {
            edit.reset();
            setEditing(undefined);
            void onChanged();
          }}
        />
      )}
      {editing === undefined ? (
        <p className="mt-1 [overflow-wrap:anywhere] whitespace-pre-wrap">{note.body}</p>
      ) : (
        <form
          className="mt-2 flex flex-col gap-2"
          onSubmit={submitWith(() => {
            if (editing.trim()) edit.mutate(editing.trim());
          })}
        >
          <TextAreaField
            label="Edit the note"
            value={editing}
            maxLength={2000}
            rows={3}
            onChange={(e) => setEditing(e.target.value)}
          />
          <div className="flex gap-2">
            <Button type="submit" disabled={edit.isPending || !editing.trim()}>
              Save note
            </Button>
            <Button variant="ghost" onClick={() => setEditing(undefined)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      {!isConflict(edit.error) && <FormError message={error?.message} className="mt-2" />}
      {editing === undefined && (own || mayDelete) && (
        <div className="mt-2 flex gap-2">
          {own && (
            <Button variant="ghost" onClick={() => setEditing(note.body)}>
              Edit<span className="sr-only"> your note of {formatDateTime(note.createdAt)}</span>
            </Button>
          )}
          {mayDelete && (
            <ConfirmButton
              label="Delete"
              variant="ghost"
              title="Delete this note?"
              description={own ? "Your note is deleted for good." : `${author}'s note is deleted for good.`}
              confirmLabel="Delete note"
              onConfirm={() => remove.mutate()}
            />
          )}
        </div>
      )}
    </li>
  );
}
