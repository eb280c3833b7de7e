import { Link } from "@tanstack/react-router";
import { Button } from "../../components/ui/button";
import { Cell, Table } from "../../components/ui/table";
import { TagChip } from "../../components/ui/tag-chip";
import { Muted } from "../../components/ui/text";
import { formatAgo, formatDateTime } from "../../lib/format";
import { STATUS_LABELS, type Tag } from "../../lib/triage";
import { ImportedBadge, importedOf } from "./imported";
import type { Folder, Submission } from "./queries";
import type { Lead } from "./triage";
import { gradeLabel, mainValues, SPAM_THRESHOLD, signalLabel } from "./values";
import { ValuesDeletedBadge } from "./values-deleted";

/** The lead grade in words with its score, so the grade never rests on colour alone. */
function LeadGrade({ lead }: { lead: Submission["lead"] }) {
  if (!lead) return <span className="text-slate-600 dark:text-slate-300">Not graded yet</span>;
  return (
    <span>
      <span className="font-medium">{gradeLabel(lead.grade)}</span>{" "}
      <Muted as="span">
        {lead.score}/100{lead.test ? " · test" : ""}
      </Muted>
    </span>
  );
}

/** Why a submission is in spam: its score, and each signal that fired, in words. */
function SpamReasons({ spam }: { spam: Submission["spam"] }) {
  return (
    <div>
      <span className="font-medium">Score {spam.score} of 100</span>
      {spam.score <= SPAM_THRESHOLD && <Muted>Marked as spam by a person</Muted>}
      <ul className="list-disc pl-4 text-slate-600 dark:text-slate-300">
        {spam.signals.map((signal) => (
          <li key={signal.name}>
            {signalLabel(signal.name)} (+{signal.score})
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What the inbox's rows show of triage, and the row the keyboard is on (the inbox only). */
export interface RowTriage {
  activeId: string | undefined;
  tags: ReadonlyMap<string, Tag>;
  ownerName: (userId: string) => string;
  /** A row's link got focus (by Tab or a click): it becomes the active row. */
  onActivate: (id: string) => void;
}

/** A lead's status, owner and tags, in words (tags on their colour, named). */
function TriageLine({ lead, triage }: { lead: Lead; triage: RowTriage }) {
  const tags = lead.tags.flatMap((id) => triage.tags.get(id) ?? []);
  return (
    <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
      <span className="rounded border border-slate-300 px-1.5 py-0.5 font-medium dark:border-slate-600">
        <span className="sr-only">Status: </span>
        {STATUS_LABELS[lead.status]}
      </span>
      <span className="text-slate-700 dark:text-slate-300">
        {lead.ownerId ? `Owner: ${triage.ownerName(lead.ownerId)}` : "No owner"}
      </span>
      {tags.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label="Tags">
          {tags.map((tag) => (
            <li key={tag.id}>
              <TagChip name={tag.name} colour={tag.colour} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A folder's submissions: who sent each, its reference, when, its lead grade or spam reasons, and
 * moving it. In the inbox (`triage`), each row also shows its status, owner and tags, an unread row
 * is bold and says "Unread", and the active row (the keyboard's) is outlined; its link alone is in
 * the tab order (a roving tabindex: j/k move it, docs/dashboard.md). On a phone the reference, the
 * grade and the row's own move are left out (the selection bar and the submission's page have them).
 */
export function SubmissionsTable({
  folder,
  title,
  rows,
  selected,
  onToggle,
  onMove,
  triage,
}: {
  folder: Folder;
  title: string;
  rows: Lead[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onMove: (id: string) => void;
  triage?: RowTriage | undefined;
}) {
  const wide = "hidden sm:table-cell";
  const columns = [
    { label: "Select", hidden: true },
    { label: "Submission" },
    { label: "Reference", className: wide },
    { label: "Received", className: wide },
    { label: folder === "spam" ? "Why it is spam" : "Lead", className: wide },
    { label: "Actions", hidden: true, className: wide },
  ];
  const activeId = triage && rows.some((r) => r.id === triage.activeId) ? triage.activeId : rows[0]?.id;
  return (
    <Table caption={title} columns={columns}>
      {rows.map((s) => {
        const values = mainValues(s.data);
        const label = values[0]?.value || s.referenceId;
        const unread = triage !== undefined && s.unread === true;
        const active = triage !== undefined && s.id === activeId;
        return (
          <tr
            key={s.id}
            data-submission-id={s.id}
            {...(active ? { "data-active": "true" } : {})}
            className={`border-b border-slate-200 align-top dark:border-slate-700 ${
              active
                ? "bg-indigo-50 outline-2 -outline-offset-2 outline-indigo-600 dark:bg-indigo-950 dark:outline-indigo-300"
                : ""
            }`}
          >
            <Cell className="pl-1">
              <input
                type="checkbox"
                aria-label={`Select ${label}`}
                checked={selected.has(s.id)}
                onChange={() => onToggle(s.id)}
                className="h-6 w-6 sm:h-4 sm:w-4"
              />
            </Cell>
            <Cell className="min-w-0 break-words">
              <Link
                to="/submissions/$submissionId"
                params={{ submissionId: s.id }}
                className={`inline-block py-1 ${unread ? "font-bold" : "font-medium"}`}
                {...(triage ? { tabIndex: active ? 0 : -1, onFocus: () => triage.onActivate(s.id) } : {})}
              >
                {label}
                {unread && <span className="sr-only"> (unread)</span>}
              </Link>
              {unread && (
                <span
                  aria-hidden="true"
                  className="ml-2 rounded bg-indigo-700 px-1.5 py-0.5 text-xs font-semibold text-white dark:bg-indigo-300 dark:text-slate-950"
                >
                  Unread
                </span>
              )}
              {importedOf(s) && <ImportedBadge />}
              {s.valuesDeletedAt ? (
                <div>
                  <ValuesDeletedBadge />
                </div>
              ) : (
                <Muted as="div" className={unread ? "font-semibold" : ""}>
                  {values
                    .slice(1)
                    .map((v) => v.value)
                    .filter(Boolean)
                    .join(" · ")}
                </Muted>
              )}
              {triage && <TriageLine lead={s} triage={triage} />}
              <Muted as="div" className="text-xs sm:hidden">
                <time dateTime={s.createdAt}>{formatAgo(s.createdAt)}</time> · {s.referenceId}
              </Muted>
            </Cell>
            <Cell className={`font-mono text-xs ${wide}`}>{s.referenceId}</Cell>
            <Cell className={wide}>
              <time dateTime={s.createdAt} title={formatDateTime(s.createdAt)}>
                {formatAgo(s.createdAt)}
              </time>
            </Cell>
            <Cell className={wide}>{folder === "spam" ? <SpamReasons spam={s.spam} /> : <LeadGrade lead={s.lead} />}</Cell>
            <Cell className={wide}>
              <Button variant="ghost" onClick={() => onMove(s.id)}>
                {folder === "spam" ? "Not spam" : "Mark as spam"}
                <span className="sr-only">: {label}</span>
              </Button>
            </Cell>
          </tr>
        );
      })}
    </Table>
  );
}
