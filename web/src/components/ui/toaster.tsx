import { Toast } from "radix-ui";

/** One short confirmation on screen. */
export interface Note {
  id: number;
  text: string;
}

/** The notes of `ToastProvider`, shown and announced by Radix Toast (loaded with the first note). */
export default function Toaster({ notes, onClose }: { notes: Note[]; onClose: (id: number) => void }) {
  return (
    <Toast.Provider duration={4000}>
      {notes.map((note) => (
        <Toast.Root
          key={note.id}
          onOpenChange={(open) => {
            if (!open) onClose(note.id);
          }}
          className="rounded-md bg-slate-900 px-4 py-3 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-900"
        >
          <Toast.Description>{note.text}</Toast.Description>
        </Toast.Root>
      ))}
      <Toast.Viewport className="fixed bottom-4 right-4 z-50 flex w-80 flex-col gap-2" />
    </Toast.Provider>
  );
}
