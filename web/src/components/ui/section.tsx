import type { ReactNode } from "react";
import { card } from "./page";

/** A titled card of a settings page, a region named by its heading; `danger` for what cannot be undone. */
export function Section({
  id,
  title,
  children,
  danger = false,
}: {
  id: string;
  title: string;
  children: ReactNode;
  danger?: boolean;
}) {
  return (
    <section aria-labelledby={id} className={`${card} ${danger ? "border-red-300 dark:border-red-800" : ""} flex flex-col gap-4`}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
