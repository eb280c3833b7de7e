import { createContext, lazy, type ReactNode, Suspense, useCallback, useContext, useState } from "react";
import type { Note } from "./toaster";

const ToastContext = createContext<(text: string) => void>(() => undefined);

/**
 * Radix Toast's code loads with the first note, not with the first page: the sign-in page
 * never shows one, so it stays out of the entry chunk (docs/performance.md, dashboard weight).
 */
const Toaster = lazy(() => import("./toaster"));

/** Short confirmations ("Copied", "Moved to the inbox"), announced politely (Radix Toast). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [notes, setNotes] = useState<Note[]>([]);
  // Once loaded, the toaster stays mounted, so its viewport (and F8 to reach it) stays too.
  const [used, setUsed] = useState(false);
  const push = useCallback((text: string) => {
    setUsed(true);
    setNotes((n) => [...n, { id: Date.now() + Math.random(), text }]);
  }, []);
  const close = useCallback((id: number) => setNotes((n) => n.filter((x) => x.id !== id)), []);
  return (
    <ToastContext.Provider value={push}>
      {children}
      {used && (
        <Suspense fallback={null}>
          <Toaster notes={notes} onClose={close} />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
