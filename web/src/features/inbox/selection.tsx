import { type ReactNode, useState } from "react";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import type { Folder } from "./queries";

/** The submissions ticked in a folder's table. */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return { selected, toggle, clear: () => setSelected(new Set()) };
}

/**
 * The floating actions of a selection: the inbox's triage (`children`: status, assign, tag), move
 * it to the other folder, or delete it behind a confirmation. It stays at the bottom of the screen
 * while the list scrolls, and wraps on a phone.
 */
export function SelectionBar({
  folder,
  ids,
  onMove,
  onDelete,
  onClear,
  children,
}: {
  folder: Folder;
  ids: string[];
  onMove: () => void;
  onDelete: () => void;
  onClear?: () => void;
  children?: ReactNode;
}) {
  if (ids.length === 0) return null;
  return (
    <section
      className="sticky bottom-0 z-10 mb-3 flex flex-wrap items-center gap-2 rounded-md border border-slate-200 bg-white p-2 shadow-sm dark:border-slate-700 dark:bg-slate-900"
      aria-label="Selection actions"
    >
      <span className="text-sm">{ids.length} selected</span>
      {children}
      <Button variant="secondary" onClick={onMove}>
        {folder === "spam" ? "Not spam" : "Mark as spam"}
      </Button>
      <ConfirmButton
        label="Delete selected"
        variant="danger"
        title={`Delete ${ids.length} ${ids.length === 1 ? "submission" : "submissions"}?`}
        description="They are deleted for good, with their data. This cannot be undone."
        confirmLabel="Delete"
        onConfirm={onDelete}
      />
      {onClear && (
        <Button variant="ghost" onClick={onClear}>
          Clear selection
        </Button>
      )}
    </section>
  );
}

/** "3 new submissions", from the polled newest page, with a button to show them. */
export function FreshBanner({ count, onShow }: { count: number; onShow: () => void }) {
  if (count === 0) return null;
  return (
    <div role="status" className="mb-4 flex items-center justify-between rounded-md bg-indigo-50 px-4 py-2 dark:bg-indigo-950">
      <span>
        {count >= 50 ? "50+" : count} new {count === 1 ? "submission" : "submissions"}
      </span>
      <Button variant="secondary" onClick={onShow}>
        Show them
      </Button>
    </div>
  );
}
