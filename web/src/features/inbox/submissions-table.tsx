import { Link } from "@tanstack/react-router";
import { Button } from "../../components/ui/button";
import { Cell, Row, Table } from "../../components/ui/table";
import { Muted } from "../../components/ui/text";
import { formatAgo, formatDateTime } from "../../lib/format";
import type { Folder, Submission } from "./queries";
import { gradeLabel, mainValues, SPAM_THRESHOLD, signalLabel } from "./values";
import { ValuesDeletedBadge } from "./values-deleted";

/** The lead grade in words with its score, so the grade never rests on colour alone. */
function LeadGrade({ lead }: { lead: Submission["lead"] }) {
  if (!lead) return <span className="text-slate-500 dark:text-slate-400">Not graded yet</span>;
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

/** A folder's submissions: who sent each, its reference, when, its lead grade or spam reasons, and moving it. */
export function SubmissionsTable({
  folder,
  title,
  rows,
  selected,
  onToggle,
  onMove,
}: {
  folder: Folder;
  title: string;
  rows: Submission[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onMove: (id: string) => void;
}) {
  const columns = [
    { label: "Select", hidden: true },
    { label: "Submission" },
    { label: "Reference" },
    { label: "Received" },
    { label: folder === "spam" ? "Why it is spam" : "Lead" },
    { label: "Actions", hidden: true },
  ];
  return (
    <Table caption={title} columns={columns}>
      {rows.map((s) => {
        const values = mainValues(s.data);
        const label = values[0]?.value || s.referenceId;
        return (
          <Row key={s.id}>
            <Cell>
              <input
                type="checkbox"
                aria-label={`Select ${label}`}
                checked={selected.has(s.id)}
                onChange={() => onToggle(s.id)}
                className="h-4 w-4"
              />
            </Cell>
            <Cell>
              <Link to="/submissions/$submissionId" params={{ submissionId: s.id }} className="font-medium">
                {label}
              </Link>
              {s.valuesDeletedAt ? (
                <div>
                  <ValuesDeletedBadge />
                </div>
              ) : (
                <Muted as="div">
                  {values
                    .slice(1)
                    .map((v) => v.value)
                    .filter(Boolean)
                    .join(" · ")}
                </Muted>
              )}
            </Cell>
            <Cell className="font-mono text-xs">{s.referenceId}</Cell>
            <Cell>
              <time dateTime={s.createdAt} title={formatDateTime(s.createdAt)}>
                {formatAgo(s.createdAt)}
              </time>
            </Cell>
            <Cell>{folder === "spam" ? <SpamReasons spam={s.spam} /> : <LeadGrade lead={s.lead} />}</Cell>
            <Cell>
              <Button variant="ghost" onClick={() => onMove(s.id)}>
                {folder === "spam" ? "Not spam" : "Mark as spam"}
                <span className="sr-only">: {label}</span>
              </Button>
            </Cell>
          </Row>
        );
      })}
    </Table>
  );
}
