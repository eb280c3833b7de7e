import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiError, apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError, SelectField, submitWith, TextAreaField } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { TagChip } from "../../components/ui/tag-chip";
import { Muted } from "../../components/ui/text";
import { can, type Me, useMe } from "../../lib/access";
import { formatAgo, formatDateTime } from "../../lib/format";
import { type Member, membersQuery, STATUS_LABELS, STATUSES, type Status, type Tag, tagsQuery } from "../../lib/triage";
import {
  addNote,
  deleteNote,
  editNote,
  type Lead,
  type Note,
  notesQuery,
  setRead,
  type TimelineEntry,
  type TriageChange,
  timelineQuery,
  updateLead,
} from "./triage";

/** Whether an error is the API's answer that the lead (or the note) changed meanwhile. */
const isConflict = (error: unknown) => error instanceof ApiError && error.code === "CONFLICT";

/** Said when a save answered 409 CONFLICT, as the form builder says it: nothing was overwritten. */
function ConflictAlert({ what, onReload }: { what: string; onReload: () => void }) {
  return (
    <div
      role="alert"
      className="mb-3 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50"
    >
      <p>
        <strong>Someone else changed this {what}</strong> after you opened it, so your change was not saved (nothing was
        overwritten). Reload to see theirs, then make yours again.
      </p>
      <Button variant="secondary" onClick={onReload}>
        Reload
      </Button>
    </div>
  );
}

/** The people named on the page: a member by id ("you" for the signed-in person). */
const nameOf = (me: Me, members: readonly Member[]) => (userId: string) =>
  userId === me.user.id ? "you" : (members.find((m) => m.id === userId)?.name ?? "a former member");

/**
 * A lead's triage on its page (issue 28): status, owner and tags, each saved as it changes with
 * the version read (a 409 says someone else changed it first), its notes and its timeline. Opening
 * the page marks the lead read for the signed-in person.
 */
export function TriagePanel({ lead }: { lead: Lead }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const members = useInfiniteQuery(membersQuery);
  const tags = useQuery(tagsQuery);
  const memberList = members.data?.pages.flatMap((p) => p.members) ?? [];
  const [said, setSaid] = useState("");

  // Opening the page marks it read (once per lead); the inbox's lists are read again after.
  useEffect(() => {
    setRead(lead.id, true)
      .then(() => queryClient.invalidateQueries({ queryKey: ["forms", lead.formId, "submissions"] }))
      .catch(() => undefined);
  }, [lead.id, lead.formId, queryClient]);

  const reload = async () => {
    save.reset();
    await queryClient.invalidateQueries({ queryKey: queryKeys.submissions.one(lead.id) });
  };
  const save = useMutation({
    mutationFn: ({ change }: { change: TriageChange; what: string }) =>
      updateLead(lead.id, { ...change, updatedAt: lead.updatedAt }),
    onSuccess: async (fresh, { what }) => {
      queryClient.setQueryData(queryKeys.submissions.one(lead.id), fresh);
      setSaid(what);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(lead.formId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.submissions.timeline(lead.id) }),
      ]);
    },
  });
  const conflict = isConflict(save.error);
  const spam = lead.spam.isSpam;
  const editable = can(me, "forms.edit") && !spam && !conflict && !save.isPending;
  // A deleted tag's id stays on the lead until its tags change: only tags that exist are shown and sent.
  const known = new Set((tags.data ?? []).map((t) => t.id));
  const leadTags = new Set(lead.tags.filter((id) => known.has(id)));
  const name = nameOf(me, memberList);

  return (
    <section className={`${card} lg:col-span-2`} aria-labelledby="triage-heading">
      <h2 id="triage-heading" className="mb-3 text-lg font-medium">
        Working this lead
      </h2>
      {conflict && <ConflictAlert what="lead" onReload={() => void reload()} />}
      {!conflict && <FormError message={apiError(save.error)?.message} className="mb-3" />}
      {spam && <Muted className="mb-3">A submission in spam cannot be worked: mark it as not spam first.</Muted>}
      {!can(me, "forms.edit") && <Muted className="mb-3">Your role ({me.role}) can read this lead and take notes.</Muted>}
      <div className="flex flex-wrap items-end gap-4">
        <SelectField
          label="Status"
          value={lead.status}
          disabled={!editable}
          onChange={(e) => {
            const status = e.target.value as Status;
            save.mutate({ change: { status }, what: `Status set to ${STATUS_LABELS[status]}` });
          }}
          options={STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
        />
        <SelectField
          label="Owner"
          value={lead.ownerId ?? ""}
          disabled={!editable}
          onChange={(e) => {
            const ownerId = e.target.value || null;
            save.mutate({ change: { ownerId }, what: ownerId ? `Assigned to ${name(ownerId)}` : "Unassigned" });
          }}
          options={[
            { value: "", label: "Nobody" },
            ...(lead.ownerId && !memberList.some((m) => m.id === lead.ownerId)
              ? [{ value: lead.ownerId, label: name(lead.ownerId) }]
              : []),
            ...memberList.map((m) => ({ value: m.id, label: m.id === me.user.id ? `${m.name} (you)` : m.name })),
          ]}
        />
      </div>
      <fieldset className="mt-4" disabled={!editable}>
        <legend className="text-sm font-medium">Tags</legend>
        {tags.data && tags.data.length === 0 && (
          <Muted className="mt-1">No tags yet: owners, admins and members who edit forms make them in Settings → Tags.</Muted>
        )}
        <ul className="mt-2 flex flex-wrap gap-2">
          {(tags.data ?? []).map((tag: Tag) => {
            const on = leadTags.has(tag.id);
            return (
              <li key={tag.id}>
                <button
                  type="button"
                  aria-pressed={on}
                  className="inline-flex min-h-9 items-center gap-1 rounded-full border border-slate-300 px-2 py-1 text-sm aria-pressed:border-indigo-700 aria-pressed:ring-2 aria-pressed:ring-indigo-700 disabled:opacity-60 dark:border-slate-600 dark:aria-pressed:border-indigo-300 dark:aria-pressed:ring-indigo-300"
                  onClick={() => {
                    const next = on ? [...leadTags].filter((id) => id !== tag.id) : [...leadTags, tag.id];
                    save.mutate({ change: { tags: next }, what: on ? `Tag ${tag.name} removed` : `Tag ${tag.name} added` });
                  }}
                >
                  <span aria-hidden="true">{on ? "✓" : "+"}</span>
                  <TagChip name={tag.name} colour={tag.colour} />
                </button>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <p role="status" aria-live="polite" className="mt-3 min-h-5 text-sm font-medium">
        {said}
      </p>
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <Notes submissionId={lead.id} name={name} />
        <Timeline submissionId={lead.id} name={name} tags={tags.data ?? []} />
      </div>
    </section>
  );
}

/** A lead's notes, oldest first: add one; edit or delete your own; owners and admins delete any. */
function Notes({ submissionId, name }: { submissionId: string; name: (userId: string) => string }) {
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
  const mayDeleteAny = me.role === "owner" || me.role === "admin";
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
            mayDelete={note.authorId === me.user.id || mayDeleteAny}
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

/** One timeline entry in words: "You set the status from New to Contacted". */
function describe(entry: TimelineEntry, name: (userId: string) => string, tags: readonly Tag[]): string[] {
  const tagName = (id: string) => tags.find((t) => t.id === id)?.name ?? "a deleted tag";
  if (entry.type === "submission_note_event") return [`${entry.note.action} a note`];
  const c = entry.changes;
  const lines: string[] = [];
  if (c.status) lines.push(`set the status from ${STATUS_LABELS[c.status.from]} to ${STATUS_LABELS[c.status.to]}`);
  if (c.ownerId) {
    const to = c.ownerId.to;
    lines.push(to ? `assigned it to ${name(to)}` : "left it without an owner");
  }
  if (c.tags) {
    if (c.tags.added.length > 0) lines.push(`added the tag ${c.tags.added.map(tagName).join(", ")}`);
    if (c.tags.removed.length > 0) lines.push(`removed the tag ${c.tags.removed.map(tagName).join(", ")}`);
  }
  return lines;
}

/** Who changed what, when: newest first, a page at a time. */
function Timeline({
  submissionId,
  name,
  tags,
}: {
  submissionId: string;
  name: (userId: string) => string;
  tags: readonly Tag[];
}) {
  const me = useMe();
  const timeline = useInfiniteQuery(timelineQuery(submissionId));
  const entries = timeline.data?.pages.flatMap((p) => p.entries) ?? [];
  const actorName = (entry: TimelineEntry) =>
    entry.actor.type === "member" && entry.actor.id === me.user.id
      ? "You"
      : entry.actor.type === "api_key"
        ? `API key ${entry.actor.name}`
        : entry.actor.name;
  return (
    <section aria-labelledby="timeline-heading">
      <h3 id="timeline-heading" className="mb-2 font-medium">
        Timeline
      </h3>
      {timeline.isError && <FormError message={timeline.error.message} />}
      {timeline.isSuccess && entries.length === 0 && <Muted>Nothing changed since it arrived.</Muted>}
      <ol className="flex flex-col gap-2 text-sm">
        {entries.map((entry) => (
          <li key={entry.id} className="border-l-2 border-slate-300 pl-3 dark:border-slate-600">
            <span className="font-medium">{actorName(entry)}</span> {describe(entry, name, tags).join(", ")}
            <Muted as="div" className="text-xs">
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
            </Muted>
          </li>
        ))}
      </ol>
      {timeline.hasNextPage && (
        <Button
          variant="secondary"
          className="mt-2"
          disabled={timeline.isFetchingNextPage}
          onClick={() => void timeline.fetchNextPage()}
        >
          {timeline.isFetchingNextPage ? "Loading…" : "Older changes"}
        </Button>
      )}
    </section>
  );
}
