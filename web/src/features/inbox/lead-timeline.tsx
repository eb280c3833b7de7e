import { useInfiniteQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { Muted } from "../../components/ui/text";
import { useMe } from "../../lib/access";
import { formatDateTime } from "../../lib/format";
import { STATUS_LABELS, type Tag } from "../../lib/triage";
import { type TimelineEntry, timelineQuery } from "./triage";

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

/**
 * An API key by the name it had at the time ("API key CRM sync"); entries written before the
 * timeline recorded it carry only "API key", read as "An API key".
 */
export const keyName = (name: string) => (name && name !== "API key" ? `API key ${name}` : "An API key");

/** Who changed what, when: newest first, a page at a time. */
export function Timeline({
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
    entry.actor.type === "member" ? (entry.actor.id === me.user.id ? "You" : entry.actor.name) : keyName(entry.actor.name);
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
