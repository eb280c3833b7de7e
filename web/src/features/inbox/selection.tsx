import { useState } from "react";
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

/** The floating actions of a selection: move it to the other folder, or delete it behind a confirmation. */
export function SelectionBar({
  folder,
  ids,
  onMove,
  onDelete,
}: {
  folder: Folder;
  ids: string[];
  onMove: () => void;
  onDelete: () => void;
}) {
  if (ids.length === 0) return null;
  return (
    <section className="mb-3 flex flex-wrap items-center gap-2" aria-label="Selection actions">
      <span className="text-sm">{ids.length} selected</span>
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
