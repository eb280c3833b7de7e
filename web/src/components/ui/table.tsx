import { createContext, type ReactNode, useContext } from "react";

/** A column's heading; `hidden` keeps it for screen readers only (a checkbox or actions column). */
export interface Column {
  label: string;
  hidden?: boolean;
  /** Classes of the heading cell (`hidden sm:table-cell` for a column a phone leaves out). */
  className?: string;
}

const Compact = createContext(false);

/**
 * A data table, named by its caption (for screen readers) and headed by its columns. It scrolls
 * sideways on a narrow screen, unless `scrolls` is false: for a narrow table, or one that may be
 * visually hidden (a scroll box inside a 1-pixel box is a scrollable region no keyboard reaches).
 * `compact` is for a table inside a card or beside a chart.
 */
export function Table({
  caption,
  columns,
  compact = false,
  scrolls = true,
  children,
}: {
  caption: string;
  columns: readonly Column[];
  compact?: boolean;
  scrolls?: boolean;
  children: ReactNode;
}) {
  const heading = compact ? "py-1 pr-3 font-medium" : "py-2 pr-4 font-semibold";
  return (
    <div className={scrolls ? "overflow-x-auto" : undefined}>
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-300 dark:border-slate-600">
            {columns.map((column) => (
              <th key={column.label} scope="col" className={`${heading} ${column.className ?? ""}`}>
                {column.hidden ? <span className="sr-only">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <Compact.Provider value={compact}>
          <tbody>{children}</tbody>
        </Compact.Provider>
      </table>
    </div>
  );
}

/** One row of a `Table`. */
export function Row({ children }: { children: ReactNode }) {
  const compact = useContext(Compact);
  return (
    <tr
      className={
        compact
          ? "border-b border-slate-100 align-top dark:border-slate-800"
          : "border-b border-slate-200 align-top dark:border-slate-700"
      }
    >
      {children}
    </tr>
  );
}

/** A cell of a `Row`. */
export function Cell({ className = "", children }: { className?: string; children?: ReactNode }) {
  const compact = useContext(Compact);
  return <td className={`${compact ? "py-1 pr-3" : "py-3 pr-4"} ${className}`}>{children}</td>;
}

/** The cell that names its row (a member, an organization, a day), read first by screen readers. */
export function RowHeader({ className = "", children }: { className?: string; children: ReactNode }) {
  const compact = useContext(Compact);
  return (
    <th scope="row" className={`${compact ? "py-1 pr-3 font-normal" : "py-3 pr-4 font-medium"} text-left ${className}`}>
      {children}
    </th>
  );
}
