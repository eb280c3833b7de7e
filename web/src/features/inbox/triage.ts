import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { queryKeys } from "../../api/keys";
import type { Status } from "../../lib/triage";
import { call } from "../../lib/triage-api";
import type { Submission } from "./queries";

/**
 * A lead's triage (issue 28): its status, owner, tags, notes, timeline and read state, and the
 * routes that change them (docs/api.md, "Working the leads").
 */

/** What the API's submission view adds for triage; absent on an older answer means its default. */
export interface TriageFields {
  status?: Status;
  ownerId?: string | null;
  tags?: string[];
  updatedAt?: string;
  noteCount?: number;
  unread?: boolean | null;
}

export type Lead = Submission & TriageFields;

export const statusOf = (s: TriageFields): Status => s.status ?? "new";

export interface Note {
  id: string;
  submissionId: string;
  authorId: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export interface Actor {
  type: "member" | "api_key";
  id: string;
  name: string;
}

export interface TimelineEntry {
  id: string;
  type: "submission_change" | "submission_note_event";
  at: string;
  actor: Actor;
  changes?: {
    status?: { from: Status; to: Status };
    ownerId?: { from: string | null; to: string | null };
    tags?: { added: string[]; removed: string[] };
  };
  note?: { id: string; action: "added" | "edited" | "deleted" };
}

/** A change to one lead; `updatedAt` is the version edited (409 CONFLICT when someone changed it since). */
export interface TriageChange {
  status?: Status;
  ownerId?: string | null;
  tags?: string[];
  updatedAt?: string;
}

export const updateLead = (id: string, change: TriageChange) =>
  call<{ submission: Lead }>("PATCH", `/api/v1/submissions/${encodeURIComponent(id)}`, change).then((r) => r.submission);

export interface BulkChange {
  status?: Status;
  ownerId?: string | null;
  addTags?: string[];
  removeTags?: string[];
}

export interface BulkResult {
  updated: number;
  unchanged: number;
  notFound: string[];
  rejected: { id: string; code: string }[];
}

export const bulkUpdate = (ids: string[], change: BulkChange) =>
  call<BulkResult>("POST", "/api/v1/submissions/bulk-update", { ids, ...change });

/** Marks a lead read (`true`) or unread for the signed-in person. */
export const setRead = (id: string, read: boolean) =>
  call<unknown>(read ? "PUT" : "DELETE", `/api/v1/submissions/${encodeURIComponent(id)}/read`);

const notesPath = (submissionId: string) => `/api/v1/submissions/${encodeURIComponent(submissionId)}/notes`;

export const notesQuery = (submissionId: string) =>
  queryOptions({
    queryKey: queryKeys.submissions.notes(submissionId),
    queryFn: async () => (await call<{ notes: Note[] }>("GET", notesPath(submissionId))).notes,
  });

export const addNote = (submissionId: string, body: string) =>
  call<{ note: Note }>("POST", notesPath(submissionId), { body }).then((r) => r.note);

export const editNote = (submissionId: string, note: Note, body: string) =>
  call<{ note: Note }>("PUT", `${notesPath(submissionId)}/${encodeURIComponent(note.id)}`, {
    body,
    updatedAt: note.updatedAt,
  }).then((r) => r.note);

export const deleteNote = (submissionId: string, noteId: string) =>
  call<unknown>("DELETE", `${notesPath(submissionId)}/${encodeURIComponent(noteId)}`);

export const timelineQuery = (submissionId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.submissions.timeline(submissionId),
    queryFn: ({ pageParam }) =>
      call<{ entries: TimelineEntry[]; nextCursor: string | null }>(
        "GET",
        `/api/v1/submissions/${encodeURIComponent(submissionId)}/timeline${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ""}`,
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** The form's inbox counts per status (`counts.statuses` of GET /forms/{formId}). */
export const statusCountsQuery = (formId: string) =>
  queryOptions({
    queryKey: queryKeys.submissions.statusCounts(formId),
    queryFn: async () =>
      (
        await call<{ form: { counts?: { statuses?: Partial<Record<Status, number>> } } }>(
          "GET",
          `/api/v1/forms/${encodeURIComponent(formId)}`,
        )
      ).form.counts?.statuses ?? {},
  });

/** "Status set to Contacted on 3 leads; 1 was refused (spam)": a bulk answer in words, for the live region. */
export function bulkSummary(what: string, result: BulkResult): string {
  const done = result.updated + result.unchanged;
  const parts = [`${what} on ${done} ${done === 1 ? "lead" : "leads"}`];
  if (result.rejected.length > 0) {
    const codes = [...new Set(result.rejected.map((r) => REJECTIONS[r.code] ?? r.code))].join(", ");
    parts.push(`${result.rejected.length} refused (${codes})`);
  }
  if (result.notFound.length > 0) parts.push(`${result.notFound.length} no longer exist`);
  return `${parts.join("; ")}.`;
}

const REJECTIONS: Record<string, string> = {
  SUBMISSION_IS_SPAM: "in spam",
  INVALID_STATUS_CHANGE: "a closed lead cannot go back to new",
  INSUFFICIENT_PERMISSION: "your role cannot give someone else's lead away",
  OWNER_NOT_A_MEMBER: "not a member",
  UNKNOWN_TAG: "unknown tag",
};
