import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { operations } from "../../api/schema";
import type { Answer } from "../../api/types";
import type { Submission } from "./queries";

/**
 * A lead's triage (docs/triage.md): its status, owner, tags, notes, timeline and read state, and the
 * routes that change them (docs/api.md, "Working the leads").
 */

/** The read state the list and the detail carry (for a session; null for an API key; PATCH's answer has none). */
export interface ReadState {
  unread?: boolean | null;
}

export type Lead = Submission & ReadState;

export type Note = Answer<"listNotesResponse">["notes"][number];
export type TimelineEntry = Answer<"getTimelineResponse">["entries"][number];
export type BulkResult = Answer<"bulkUpdateSubmissionsResponse">;
type PatchBody = NonNullable<operations["patchSubmission"]["requestBody"]>["content"]["application/json"];
type BulkBody = NonNullable<operations["bulkUpdateSubmissions"]["requestBody"]>["content"]["application/json"];

/** A change to one lead; `updatedAt` is the version edited (409 CONFLICT when someone changed it since). */
export type TriageChange = PatchBody;
/** A change to many leads at once: status, owner, tags added or removed. */
export type BulkChange = Omit<BulkBody, "ids">;

const one = (submissionId: string) => ({ params: { path: { submissionId } } });

export const updateLead = async (submissionId: string, body: TriageChange) =>
  (await unwrap(api.PATCH("/api/v1/submissions/{submissionId}", { params: { path: { submissionId } }, body }))).data.submission;

export const bulkUpdate = async (ids: string[], change: BulkChange) =>
  (await unwrap(api.POST("/api/v1/submissions/bulk-update", { body: { ids, ...change } }))).data;

/** Marks a lead read (`true`) or unread for the signed-in person. */
export const setRead = (submissionId: string, read: boolean) =>
  unwrap(
    read
      ? api.PUT("/api/v1/submissions/{submissionId}/read", one(submissionId))
      : api.DELETE("/api/v1/submissions/{submissionId}/read", one(submissionId)),
  );

const ofNote = (submissionId: string, noteId: string) => ({ params: { path: { submissionId, noteId } } });

export const notesQuery = (submissionId: string) =>
  queryOptions({
    queryKey: queryKeys.submissions.notes(submissionId),
    queryFn: async () => (await unwrap(api.GET("/api/v1/submissions/{submissionId}/notes", one(submissionId)))).data.notes,
  });

export const addNote = async (submissionId: string, body: string) =>
  (await unwrap(api.POST("/api/v1/submissions/{submissionId}/notes", { ...one(submissionId), body: { body } }))).data.note;

export const editNote = async (submissionId: string, note: Note, body: string) =>
  (
    await unwrap(
      api.PUT("/api/v1/submissions/{submissionId}/notes/{noteId}", {
        ...ofNote(submissionId, note.id),
        body: { body, updatedAt: note.updatedAt },
      }),
    )
  ).data.note;

export const deleteNote = (submissionId: string, noteId: string) =>
  unwrap(api.DELETE("/api/v1/submissions/{submissionId}/notes/{noteId}", ofNote(submissionId, noteId)));

export const timelineQuery = (submissionId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.submissions.timeline(submissionId),
    queryFn: async ({ pageParam }) =>
      (
        await unwrap(
          api.GET("/api/v1/submissions/{submissionId}/timeline", {
            params: { path: { submissionId }, query: pageParam ? { cursor: pageParam } : {} },
          }),
        )
      ).data,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** The form's inbox counts per status (`counts.statuses` of GET /forms/{formId}; null when not counted). */
export const statusCountsQuery = (formId: string) =>
  queryOptions({
    queryKey: queryKeys.submissions.statusCounts(formId),
    queryFn: async () =>
      (await unwrap(api.GET("/api/v1/forms/{formId}", { params: { path: { formId } } }))).data.form.counts?.statuses ?? {},
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
  TOO_MANY_TAGS: "a lead has at most 10 tags",
  CONFLICT: "changed by someone else meanwhile",
};
