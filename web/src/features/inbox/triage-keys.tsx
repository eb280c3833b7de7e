import { useEffect, useRef } from "react";
import { STATUS_LABELS, STATUSES, type Status } from "../../lib/triage";

/** What each key does on the inbox, as the page lists it ("Keyboard shortcuts"). */
export const TRIAGE_KEYS: readonly { keys: string[]; does: string }[] = [
  { keys: ["j", "↓"], does: "Next lead" },
  { keys: ["k", "↑"], does: "Previous lead" },
  { keys: ["Enter", "o"], does: "Open the lead" },
  { keys: ["x"], does: "Select or unselect the lead" },
  ...STATUSES.map((status, i) => ({ keys: [String(i + 1)], does: `Set status to ${STATUS_LABELS[status]}` })),
  { keys: ["a"], does: "Assign to me" },
  { keys: ["u"], does: "Mark read or unread" },
  { keys: ["?"], does: "Show these keys" },
];

export interface TriageHandlers {
  move: (by: 1 | -1) => void;
  open: () => void;
  toggle: () => void;
  setStatus: (status: Status) => void;
  assignToMe: () => void;
  toggleUnread: () => void;
  help: () => void;
}

/** Where a key press belongs to something else: typing in a field, a menu or a dialog. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest("input, textarea, select, [role=dialog], [role=alertdialog], [role=menu], [role=listbox]")) {
    // A checkbox is not typed into: the row's own one keeps the keys working.
    return !(target instanceof HTMLInputElement && target.type === "checkbox");
  }
  return false;
}

/**
 * The inbox's keyboard triage (docs/dashboard.md, "Working the leads"): one listener on the
 * document, silent while the person types in a field or works a menu or dialog, or holds Ctrl,
 * Alt or Meta (the browser's and the screen reader's own keys).
 */
export function useTriageKeys(handlers: TriageHandlers, enabled: boolean) {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || typing(event.target)) return;
      const h = current.current;
      const run = (action: () => void) => {
        event.preventDefault();
        action();
      };
      const digit = Number(event.key);
      if (Number.isInteger(digit) && digit >= 1 && digit <= STATUSES.length) {
        const status = STATUSES[digit - 1];
        if (status) run(() => h.setStatus(status));
        return;
      }
      switch (event.key) {
        case "j":
        case "ArrowDown":
          return run(() => h.move(1));
        case "k":
        case "ArrowUp":
          return run(() => h.move(-1));
        case "o":
          return run(h.open);
        case "Enter":
          // On a link, a button or a disclosure Enter is the element's own (the row's link opens the lead itself).
          if (event.target instanceof HTMLElement && event.target.closest("a, button, summary, [role=button]")) return;
          return run(h.open);
        case "x":
          return run(h.toggle);
        case "a":
          return run(h.assignToMe);
        case "u":
          return run(h.toggleUnread);
        case "?":
          return run(h.help);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [enabled]);
}

/** The keys, listed on the page in a disclosure ("?" opens it and moves focus to it). */
export function KeysHelp({ detailsRef }: { detailsRef: React.RefObject<HTMLDetailsElement | null> }) {
  return (
    <details ref={detailsRef} className="mb-4 text-sm">
      <summary className="cursor-pointer font-medium">Keyboard shortcuts</summary>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        On the list (not while typing in a field). A status or assignment applies to the selected leads, or to the active one when
        none is selected.
      </p>
      <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        {TRIAGE_KEYS.map((k) => (
          <div key={k.does} className="contents">
            <dt>
              {k.keys.map((key, i) => (
                <span key={key}>
                  {i > 0 && " or "}
                  <kbd className="rounded border border-slate-300 px-1.5 font-mono dark:border-slate-600">{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{k.does}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
