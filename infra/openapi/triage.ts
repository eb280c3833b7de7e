import type { addNote, editNote, readNotes, removeNote } from "../../lib/notes";
import { ACTOR_TYPES, SUBMISSION_STATUSES, TAG_COLOURS } from "../../lib/store/shapes";
import { NOTE_ACTIONS } from "../../lib/store/timeline";
import type { createTag, editTag, readTags, removeTag } from "../../lib/tags";
import type { readTimeline } from "../../lib/timeline";
import { type patchSubmission, REJECTION_CODES } from "../../lib/triage";
import type { bulkUpdateSubmissions } from "../../lib/triage-bulk";
import * as z from "../../lib/validation";
import { count, id, message, nextCursor, submission, timestamp } from "./schemas";
import { answers } from "./views";

/** The success bodies of the triage routes (docs/api.md, "Triage"), each checked against its view. */

const note = z.strictObject({ id, submissionId: id, authorId: id, body: z.string(), createdAt: timestamp, updatedAt: timestamp });
const tag = z.strictObject({ id, name: z.string(), colour: z.enum(TAG_COLOURS), createdAt: timestamp, updatedAt: timestamp });

// lib/store/timeline.ts
const actor = z.strictObject({ type: z.enum(ACTOR_TYPES), id, name: z.string() });
const status = z.enum(SUBMISSION_STATUSES);
const changeEntry = z.strictObject({
  type: z.literal("submission_change"),
  id,
  submissionId: id,
  formId: id,
  siteId: id,
  orgId: id,
  at: timestamp,
  actor,
  changes: z.strictObject({
    status: z.optional(z.strictObject({ from: status, to: status })),
    ownerId: z.optional(z.strictObject({ from: z.nullable(id), to: z.nullable(id) })),
    tags: z.optional(z.strictObject({ added: z.array(id), removed: z.array(id) })),
  }),
});
const noteEntry = z.strictObject({
  type: z.literal("submission_note_event"),
  id,
  submissionId: id,
  orgId: id,
  at: timestamp,
  actor,
  note: z.strictObject({ id, action: z.enum(NOTE_ACTIONS) }),
});

export const TRIAGE_BODIES = {
  "PATCH /api/v1/submissions/{submissionId}": answers<typeof patchSubmission>()(z.strictObject({ submission })),
  "POST /api/v1/submissions/bulk-update": answers<typeof bulkUpdateSubmissions>()(
    z.strictObject({
      updated: count,
      unchanged: count,
      notFound: z.array(z.string()),
      rejected: z.array(z.strictObject({ id: z.string(), code: z.enum(REJECTION_CODES) })),
    }),
  ),
  "GET /api/v1/submissions/{submissionId}/notes": answers<typeof readNotes>()(z.strictObject({ notes: z.array(note) })),
  "POST /api/v1/submissions/{submissionId}/notes": answers<typeof addNote>()(z.strictObject({ note })),
  "PUT /api/v1/submissions/{submissionId}/notes/{noteId}": answers<typeof editNote>()(z.strictObject({ note })),
  "DELETE /api/v1/submissions/{submissionId}/notes/{noteId}": answers<typeof removeNote>()(message),
  "GET /api/v1/submissions/{submissionId}/timeline": answers<typeof readTimeline>()(
    z.strictObject({ entries: z.array(z.union([changeEntry, noteEntry])), nextCursor }),
  ),
  "GET /api/v1/tags": answers<typeof readTags>()(z.strictObject({ tags: z.array(tag) })),
  "POST /api/v1/tags": answers<typeof createTag>()(z.strictObject({ tag })),
  "PUT /api/v1/tags/{tagId}": answers<typeof editTag>()(z.strictObject({ tag })),
  "DELETE /api/v1/tags/{tagId}": answers<typeof removeTag>()(message),
};

/** The triage routes' summaries and the codes their lib/ code throws (./operations.ts). */
export const TRIAGE_OPERATIONS = {
  "PATCH /api/v1/submissions/{submissionId}": {
    summary: "Set a submission's status, owner or tags",
    errors: ["CONFLICT", "INVALID_STATUS_CHANGE", "SUBMISSION_IS_SPAM", "OWNER_NOT_A_MEMBER", "UNKNOWN_TAG"],
  },
  "POST /api/v1/submissions/bulk-update": {
    summary: "Set the status, owner or tags of several submissions",
    errors: ["OWNER_NOT_A_MEMBER", "UNKNOWN_TAG"],
  },
  "GET /api/v1/submissions/{submissionId}/notes": { summary: "List a submission's notes, oldest first" },
  "POST /api/v1/submissions/{submissionId}/notes": { summary: "Add a note to a submission", errors: ["NOTE_LIMIT_REACHED"] },
  "PUT /api/v1/submissions/{submissionId}/notes/{noteId}": {
    summary: "Edit one's own note",
    errors: ["NOT_NOTE_AUTHOR", "CONFLICT"],
  },
  "DELETE /api/v1/submissions/{submissionId}/notes/{noteId}": {
    summary: "Delete a note (one's own; owners and admins any)",
    errors: ["NOT_NOTE_AUTHOR"],
  },
  "GET /api/v1/submissions/{submissionId}/timeline": {
    summary: "A submission's timeline, newest first",
    errors: ["INVALID_CURSOR"],
  },
  "GET /api/v1/tags": { summary: "List the organization's tags" },
  "POST /api/v1/tags": { summary: "Create a tag", errors: ["TAG_NAME_TAKEN", "TAG_LIMIT_REACHED"] },
  "PUT /api/v1/tags/{tagId}": { summary: "Rename or recolour a tag", errors: ["TAG_NAME_TAKEN", "CONFLICT"] },
  "DELETE /api/v1/tags/{tagId}": { summary: "Delete a tag (submissions keep its id)" },
} as const;
