import type { ReactNode } from "react";
import { Muted } from "./text";

/** A page's one h1, with what it is for and its main actions. */
export function PageHeader({
  title,
  description,
  actions,
  level = 1,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** 2 inside a layout that already holds the page's h1 (a form's pages). */
  level?: 1 | 2;
}) {
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        <Heading className={level === 1 ? "text-2xl font-semibold" : "text-xl font-semibold"}>{title}</Heading>
        {description && <Muted className="mt-1">{description}</Muted>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** What a list shows while it loads, or when a query failed. */
export function Loading({ label = "Loading…" }: { label?: string }) {
  return <Muted role="status">{label}</Muted>;
}

export const card = "rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900";
