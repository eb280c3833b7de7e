import { tableName } from "../aws/dynamodb";
import { fromItem } from "./items";
import { keys } from "./keys";
import { type Page, queryPage } from "./pagination";
import type { Actor, SubmissionStatus } from "./shapes";
import type { TransactItem } from "./transactions";

/**
 * A submission's timeline (docs/triage.md, "Timeline"; docs/data-model.md, "Timeline entry"):
 * entries in the submission's own partition under `TL#<at>#<id>`, written in the transaction of
 * the change they record, read newest first a page at a time. A `submission_change` entry's
 * INSERT on the table stream is the outbox of the `submission.updated` event; a
 * `submission_note_event` entry is the timeline's only.
 */

/** What happened to a note, as the timeline shows it. */
export const NOTE_ACTIONS = ["added", "edited", "deleted"] as const;
export type NoteAction = (typeof NOTE_ACTIONS)[number];

/** What a change did: only the fields that changed. */
export interface SubmissionChanges {
  status?: { from: SubmissionStatus; to: SubmissionStatus };
  ownerId?: { from: string | null; to: string | null };
  tags?: { added: string[]; removed: string[] };
}

export interface SubmissionChangeEntry {
  type: "submission_change";
  id: string;
  submissionId: string;
  formId: string;
  siteId: string;
  orgId: string;
  at: string;
  actor: Actor;
  changes: SubmissionChanges;
}

export interface NoteEventEntry {
  type: "submission_note_event";
  id: string;
  submissionId: string;
  orgId: string;
  at: string;
  actor: Actor;
  note: { id: string; action: NoteAction };
}

export type TimelineEntry = SubmissionChangeEntry | NoteEventEntry;

/** The entry as one Put of its change's transaction (a new id: it never replaces an entry). */
export const timelineEntryPut = (entry: TimelineEntry): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.timelineEntry(entry.submissionId, entry.at, entry.id), ...entry },
    ConditionExpression: "attribute_not_exists(pk)",
  },
});

const toEntry = (item: Record<string, unknown>): TimelineEntry =>
  ({
    ...fromItem<Omit<TimelineEntry, "type">>(item),
    type: item.type,
  }) as TimelineEntry;

/** One page of a submission's timeline, newest first (one Query). */
export const timelinePage = (submissionId: string, limit: number, cursor?: string): Promise<Page<TimelineEntry>> =>
  queryPage({
    partition: keys.submissionPartition(submissionId),
    prefix: keys.timelinePrefix(),
    limit,
    newestFirst: true,
    map: toEntry,
    ...(cursor ? { cursor } : {}),
  });
