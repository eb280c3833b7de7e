import { tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditNamed } from "./audit-log";
import { isExpired, unexpiredFilter } from "./expiry";
import { fromItem, getItem } from "./items";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import { queryAll } from "./pagination";
import { type NoteEventEntry, timelineEntryPut } from "./timeline";
import { type TransactItem, transact } from "./transactions";

/**
 * Notes on a submission (docs/triage.md, "Notes"; docs/data-model.md, "Note"): items in the
 * submission's partition, counted on the submission (`noteCount`, the limit under any
 * concurrency). Each write carries its timeline entry and its audit entry in one transaction.
 */

export interface Note {
  id: string;
  submissionId: string;
  orgId: string;
  authorId: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

const toNote = (item: Record<string, unknown>) => fromItem<Note>(item);

/** Every note of a submission, oldest first (at most 200 of 2,000 characters: one Query page in practice). */
export async function listNotes(submissionId: string): Promise<Note[]> {
  const items = await queryAll({
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.submissionPartition(submissionId), ":prefix": keys.notePrefix() },
  });
  return items.map(toNote).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** The submission's count of notes moves by `by`; adding needs the submission (the organization's, live) below `max`. */
function countNotes(submissionId: string, orgId: string, by: 1 | -1, max?: number): TransactItem {
  const live = unexpiredFilter();
  const below = max === undefined ? "" : " AND (attribute_not_exists(#count) OR #count < :max)";
  return {
    Update: {
      TableName: tableName(),
      Key: keys.submission(submissionId),
      UpdateExpression: "ADD #count :by",
      ConditionExpression: `attribute_exists(pk) AND orgId = :org AND ${live.expression}${below}`,
      ExpressionAttributeNames: { "#count": "noteCount", ...live.names },
      ExpressionAttributeValues: { ":by": by, ":org": orgId, ...live.values, ...(max === undefined ? {} : { ":max": max }) },
      ReturnValuesOnConditionCheckFailure: "ALL_OLD",
    },
  };
}

/** Adds a note to a submission with its timeline and audit entries ("LIMIT_REACHED": it has `max` notes). */
export async function insertNote(
  note: Note,
  max: number,
  entry: NoteEventEntry,
  audit: AuditEntryInput,
): Promise<Outcome<"OK" | "NOT_FOUND" | "LIMIT_REACHED">> {
  const cancelled = await transact([
    ["submission", countNotes(note.submissionId, note.orgId, 1, max)],
    [
      "note",
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.note(note.submissionId, note.id), type: "note", ...note },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
    ],
    ["entry", timelineEntryPut(entry)],
    ...auditNamed(audit),
  ]);
  if (!cancelled) return "OK";
  if (cancelled.refused("submission")) {
    const found = cancelled.found("submission");
    return !found || found.orgId !== note.orgId || isExpired(found.ttl) ? "NOT_FOUND" : "LIMIT_REACHED";
  }
  throw cancelled.error;
}

/** Why a note's edit or deletion was refused, from the note as it was found. */
function refusedNote(
  found: Record<string, unknown> | undefined,
  authorId: string | undefined,
): Outcome<"NOT_FOUND" | "NOT_AUTHOR" | "CONFLICT"> {
  if (!found) return "NOT_FOUND";
  if (authorId !== undefined && found.authorId !== authorId) return "NOT_AUTHOR";
  return "CONFLICT";
}

export const getNote = (submissionId: string, noteId: string) => getItem<Note>(keys.note(submissionId, noteId));

/**
 * Changes the body of a note the caller read (`current`), if it is unchanged since (its
 * `updatedAt`) and still its author's. Answers the note as written.
 */
export async function updateNote(
  current: Note,
  body: string,
  updatedAt: string,
  entry: NoteEventEntry,
  audit: AuditEntryInput,
): Promise<Note | Outcome<"NOT_FOUND" | "NOT_AUTHOR" | "CONFLICT">> {
  const cancelled = await transact([
    [
      "note",
      {
        Update: {
          TableName: tableName(),
          Key: keys.note(current.submissionId, current.id),
          UpdateExpression: "SET body = :body, updatedAt = :updatedAt",
          ConditionExpression: "attribute_exists(pk) AND authorId = :author AND updatedAt = :seen",
          ExpressionAttributeValues: {
            ":body": body,
            ":updatedAt": updatedAt,
            ":author": current.authorId,
            ":seen": current.updatedAt,
          },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
    ["entry", timelineEntryPut(entry)],
    ...auditNamed(audit),
  ]);
  if (!cancelled) return { ...current, body, updatedAt };
  if (!cancelled.refused("note")) throw cancelled.error;
  return refusedNote(cancelled.found("note"), current.authorId);
}

/**
 * Deletes a note with its timeline and audit entries, uncounting it on its submission. `authorId`:
 * only if that member wrote it (undefined: an owner or admin deletes any).
 */
export async function deleteNote(
  key: { submissionId: string; orgId: string; noteId: string; authorId?: string },
  entry: NoteEventEntry,
  audit: AuditEntryInput,
): Promise<Outcome<"OK" | "NOT_FOUND" | "NOT_AUTHOR">> {
  const cancelled = await transact([
    [
      "note",
      {
        Delete: {
          TableName: tableName(),
          Key: keys.note(key.submissionId, key.noteId),
          ConditionExpression: `attribute_exists(pk)${key.authorId === undefined ? "" : " AND authorId = :author"}`,
          ...(key.authorId === undefined ? {} : { ExpressionAttributeValues: { ":author": key.authorId } }),
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
    ["submission", countNotes(key.submissionId, key.orgId, -1)],
    ["entry", timelineEntryPut(entry)],
    ...auditNamed(audit),
  ]);
  if (!cancelled) return "OK";
  if (cancelled.refused("note")) {
    const why = refusedNote(cancelled.found("note"), key.authorId);
    return why === "CONFLICT" ? "NOT_FOUND" : why;
  }
  if (cancelled.refused("submission")) return "NOT_FOUND";
  throw cancelled.error;
}
