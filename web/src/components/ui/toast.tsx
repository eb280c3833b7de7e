import { Toast } from "radix-ui";
import { createContext, type ReactNode, useCallback, useContext, useState } from "react";

interface Note {
  id: number;
  text: string;
}

const ToastContext = createContext<(text: string) => void>(() => undefined);

/** Short confirmations ("Copied", "Moved to the inbox"), announced politely (Radix Toast). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [notes, setNotes] = useState<Note[]>([]);
  const push = useCallback((text: string) => setNotes((n) => [...n, { id: Date.now() + Math.random(), text }]), []);
  return (
    <ToastContext.Provider value={push}>
      <Toast.Provider duration={4000}>
        {children}
        {notes.map((note) => (
          <Toast.Root
            key={note.id}
            onOpenChange={(open) => {
              if (!open) setNotes((n) => n.filter((x) => x.id !== note.id));
            }}
            className="rounded-md bg-slate-900 px-4 py-3 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-900"
          >
            <Toast.Description>{note.text}</Toast.Description>
          </Toast.Root>
        ))}
        <Toast.Viewport className="fixed bottom-4 right-4 z-50 flex w-80 flex-col gap-2" />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
