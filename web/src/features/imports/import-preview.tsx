import { Cell, Row, RowHeader, Table } from "../../components/ui/table";
import { Muted } from "../../components/ui/text";
import { formatDateTime } from "../../lib/format";
import { count } from "../../lib/words";
import { IMPORT_SOURCE_LABELS, type ImportPreview, type ImportProblem } from "./queries";

/** A field of the form, as a mapping offers it. */
export interface FieldChoice {
  key: string;
  label: string;
}

/** The select's value for "Don't import" (a column mapped to null). */
const SKIP = "";
const NO_TIME = "";

/** Each choice a column's select offers: the form's fields, the new field it would make, or nothing. */
function choicesFor(column: ImportPreview["columns"][number], chosen: string | null, fields: FieldChoice[]) {
  const known = new Set(fields.map((f) => f.key));
  const news = [column.suggestedField, chosen].filter((k): k is string => !!k && !known.has(k));
  return [
    ...fields.map((f) => ({ value: f.key, label: f.label === f.key ? f.key : `${f.label} (${f.key})` })),
    ...[...new Set(news)].map((k) => ({ value: k, label: `New field: ${k}` })),
    { value: SKIP, label: "Don't import" },
  ];
}

const select =
  "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

/** The columns of the file, each with its samples and where it goes; the time column chosen above them. */
export function MappingTable({
  preview,
  fields,
  disabled,
  onMap,
  onTimeColumn,
}: {
  preview: ImportPreview;
  fields: FieldChoice[];
  disabled: boolean;
  onMap: (column: string, field: string | null) => void;
  onTimeColumn: (column: string | null) => void;
}) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <label htmlFor="import-time-column" className="text-sm font-medium">
          Time column (when each submission arrived)
        </label>
        <select
          id="import-time-column"
          className={`${select} max-w-md`}
          value={preview.timeColumn ?? NO_TIME}
          disabled={disabled}
          onChange={(e) => onTimeColumn(e.target.value === NO_TIME ? null : e.target.value)}
        >
          {preview.columns.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name}
            </option>
          ))}
          <option value={NO_TIME}>None: every row takes the import's start</option>
        </select>
      </div>
      <Table
        caption="Columns of the file and the fields they fill"
        columns={[{ label: "Column" }, { label: "Samples", className: "hidden sm:table-cell" }, { label: "Imported as" }]}
      >
        {preview.columns.map((column) => {
          const chosen = preview.mapping[column.name] ?? null;
          const isTime = column.name === preview.timeColumn;
          return (
            <Row key={column.name}>
              <RowHeader>
                <code className="break-all">{column.name}</code>
                {isTime && <Muted as="span"> (the time column)</Muted>}
              </RowHeader>
              <Cell className="hidden max-w-xs wrap-anywhere sm:table-cell">
                {column.samples.join(" · ") || <Muted as="span">(empty)</Muted>}
              </Cell>
              <Cell>
                <select
                  aria-label={`Import “${column.name}” as`}
                  className={`${select} max-w-40 sm:max-w-none`}
                  value={chosen ?? SKIP}
                  disabled={disabled}
                  onChange={(e) => onMap(column.name, e.target.value === SKIP ? null : e.target.value)}
                >
                  {choicesFor(column, chosen, fields).map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </Cell>
            </Row>
          );
        })}
      </Table>
      {preview.newFields.length > 0 && (
        <Muted>New fields the form gains: {preview.newFields.map((k, i) => [i > 0 && ", ", <code key={k}>{k}</code>])}.</Muted>
      )}
    </div>
  );
}

/** A row's values, as the inbox will show them. */
const pairs = (data: Record<string, unknown>) =>
  Object.entries(data)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : String(v)}`)
    .join(" · ");

/** The first rows as they will be stored. */
export function SampleRows({ preview }: { preview: ImportPreview }) {
  if (preview.sample.length === 0) return <Muted>No row of the file can be imported as it is mapped.</Muted>;
  return (
    <Table
      caption={`The first ${count(preview.sample.length, "row")} as they will be stored`}
      columns={[{ label: "Line" }, { label: "Received" }, { label: "Values" }]}
    >
      {preview.sample.map((row) => (
        <Row key={row.line}>
          <RowHeader>{row.line}</RowHeader>
          <Cell className="sm:whitespace-nowrap">
            <time dateTime={row.createdAt}>{formatDateTime(row.createdAt)}</time>
          </Cell>
          <Cell className="wrap-anywhere">{pairs(row.data)}</Cell>
        </Row>
      ))}
    </Table>
  );
}

/** Problems by line (the API lists the first 100). */
export function Problems({ problems, total }: { problems: ImportProblem[]; total?: number | undefined }) {
  if (problems.length === 0) return <Muted>No problems found.</Muted>;
  return (
    <div>
      <h3 className="font-medium">
        Problems ({total !== undefined && total > problems.length ? `the first ${problems.length} of ${total}` : problems.length})
      </h3>
      <ul aria-label="Problems by line" className="mt-1 flex flex-col gap-1 text-sm">
        {problems.map((p) => (
          <li key={`${p.line}-${p.code}`}>
            <strong>Line {p.line}</strong>: {p.message} <Muted as="span">({p.code})</Muted>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "Formspree export · 120 rows". */
export const describeFile = (preview: ImportPreview) => `${IMPORT_SOURCE_LABELS[preview.source]} · ${count(preview.rows, "row")}`;
