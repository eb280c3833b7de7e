import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect } from "react";
import { queryKeys } from "../../api/keys";
import { FormError } from "../../components/ui/field";
import { card, Loading } from "../../components/ui/page";
import { Cell, Row, RowHeader, Table } from "../../components/ui/table";
import { Muted } from "../../components/ui/text";
import { formatDateTime } from "../../lib/format";
import { count } from "../../lib/words";
import { Problems } from "./import-preview";
import { type Import, importQuery, importsQuery, sourceLabel } from "./queries";

/** How far an import is: the rows it has dealt with (stored, already there, or skipped). */
const done = (job: Import) => job.imported + job.duplicates + job.skipped;

/** The summary's numbers, in words. */
const summary = (job: Import) =>
  `${count(job.imported, "row")} imported (${job.spam} of them in spam), ${count(job.duplicates, "duplicate")} already there, ${job.skipped} skipped.`;

/** A running import's progress (read every second), then its summary with the problems by line. */
export function ImportProgress({ formId, importId }: { formId: string; importId: string }) {
  const job = useQuery(importQuery(formId, importId));
  const queryClient = useQueryClient();
  const finished = job.data?.status === "finished";
  // Once it is done, the past imports and the form's inbox and counts are read again.
  useEffect(() => {
    if (finished) void queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(formId) });
  }, [finished, formId, queryClient]);
  if (job.isPending) return <Loading />;
  if (job.isError) return <FormError message={job.error.message} />;
  const j = job.data;
  return (
    <section aria-labelledby="import-job-heading" className={`${card} flex flex-col gap-3`}>
      <h3 id="import-job-heading" className="text-lg font-semibold">
        {finished ? "Import finished" : "Importing…"} {j.fileName ? <span className="font-normal">({j.fileName})</span> : null}
      </h3>
      <div className="flex flex-col gap-1">
        <progress
          aria-labelledby="import-progress-text"
          className="w-full"
          max={Math.max(j.rows, 1)}
          value={finished ? Math.max(j.rows, 1) : done(j)}
        />
        <p id="import-progress-text" role="status" aria-live="polite" className="text-sm font-medium">
          {finished ? `Finished: ${summary(j)}` : `${done(j)} of ${count(j.rows, "row")} done.`}
        </p>
      </div>
      {finished && (
        <>
          <Problems problems={j.problems} total={j.skipped} />
          <p className="text-sm">
            <Link to="/forms/$formId" params={{ formId }} search={{}}>
              Open the inbox
            </Link>
          </p>
        </>
      )}
    </section>
  );
}

/** The form's past imports, newest first. */
export function PastImports({ formId }: { formId: string }) {
  const list = useQuery(importsQuery(formId));
  if (list.isPending) return <Loading />;
  if (list.isError) return <FormError message={list.error.message} />;
  if (list.data.length === 0) return <Muted>No imports yet.</Muted>;
  return (
    <Table
      caption="Past imports of this form"
      columns={[{ label: "File" }, { label: "Started" }, { label: "Format" }, { label: "Result" }]}
    >
      {list.data.map((job) => (
        <Row key={job.id}>
          <RowHeader className="wrap-anywhere">{job.fileName ?? job.id}</RowHeader>
          <Cell className="sm:whitespace-nowrap">
            <time dateTime={job.startedAt}>{formatDateTime(job.startedAt)}</time>
          </Cell>
          <Cell>{sourceLabel(job.source)}</Cell>
          <Cell>{job.status === "running" ? `Running: ${done(job)} of ${job.rows}` : summary(job)}</Cell>
        </Row>
      ))}
    </Table>
  );
}
