import type { ReactNode } from "react";

/** Secondary text beside what matters: hints, empty lists, what a state means. */
export function Muted({
  as: Tag = "p",
  className = "",
  role,
  children,
}: {
  as?: "p" | "span" | "div";
  className?: string;
  /** "status" when it changes as the person acts (a count of matches), so screen readers hear it. */
  role?: "status";
  children: ReactNode;
}) {
  return (
    <Tag role={role} className={`text-sm text-slate-600 dark:text-slate-300 ${className}`}>
      {children}
    </Tag>
  );
}
