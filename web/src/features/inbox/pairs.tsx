import type { ReactNode } from "react";
import { card } from "../../components/ui/page";

/** An email address or a phone number of the submitter as a link that starts a mail or a call. */
export function ValueLink({ field, value }: { field: string; value: string }) {
  const key = field.toLowerCase();
  if (EMAIL.test(value) && (key.includes("mail") || !value.includes(" "))) return <a href={`mailto:${value}`}>{value}</a>;
  if (/phone|tel|mobile|cell/.test(key)) {
    const dial = value.replace(/[^\d+]/g, "");
    if (dial.replace("+", "").length >= 5) return <a href={`tel:${dial}`}>{value}</a>;
  }
  return <>{value || "—"}</>;
}
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function Pairs({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  if (rows.length === 0) return null;
  return (
    <section className={card} aria-label={title}>
      <h2 className="mb-3 text-lg font-medium">{title}</h2>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[minmax(8rem,max-content)_1fr] sm:gap-y-2">
        {rows.map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="min-w-0 font-medium [overflow-wrap:anywhere] text-slate-600 dark:text-slate-300">{key}</dt>
            <dd className="min-w-0 [overflow-wrap:anywhere] whitespace-pre-wrap">{value || "—"}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
