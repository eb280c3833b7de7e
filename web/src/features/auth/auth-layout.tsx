import type { ReactNode } from "react";

/** The frame of the signed-out pages: one narrow column, the page's h1 first. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto mt-16 max-w-md px-4">
      <p className="mb-2 text-lg font-semibold text-indigo-700 dark:text-indigo-300">Inlet</p>
      <h1 className="mb-6 text-2xl font-semibold">{title}</h1>
      <div className="rounded-lg border border-slate-200 bg-white p-6 dark:border-slate-700 dark:bg-slate-900">{children}</div>
    </main>
  );
}
