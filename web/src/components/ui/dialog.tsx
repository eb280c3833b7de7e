import { AlertDialog, Dialog } from "radix-ui";
import { type ReactNode, useLayoutEffect, useRef } from "react";
import { Button, buttonClass } from "./button";

const overlay = "fixed inset-0 bg-slate-950/50";
const panel =
  "fixed left-1/2 top-1/2 max-h-[90vh] w-[min(42rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 text-slate-900 shadow-xl dark:bg-slate-900 dark:text-slate-100";

/**
 * A modal dialog (Radix: focus is trapped, Escape closes it). It is opened by state, not by a
 * Radix trigger, so it remembers the element that had focus when it opened (the button that
 * opened it) and gives focus back to it on closing; Radix alone would leave focus on the page.
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const opener = useRef<HTMLElement | null>(null);
  // A layout effect runs before Radix moves focus into the dialog (in its own passive effect).
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement) opener.current = document.activeElement;
  }, [open]);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlay} />
        <Dialog.Content
          className={panel}
          onCloseAutoFocus={(event) => {
            if (!opener.current?.isConnected) return;
            event.preventDefault();
            opener.current.focus();
          }}
        >
          <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</Dialog.Description>
          ) : (
            <Dialog.Description className="sr-only">{title}</Dialog.Description>
          )}
          <div className="mt-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The button that closes the dialog it is in (focus goes back to what opened the dialog). */
export function CloseButton({ label = "Close" }: { label?: string }) {
  return (
    <div className="mt-4 flex justify-end">
      <Dialog.Close asChild>
        <Button variant="secondary">{label}</Button>
      </Dialog.Close>
    </div>
  );
}

/** A button that asks before it acts (Radix AlertDialog); the question names what will happen. */
export function ConfirmButton({
  label,
  title,
  description,
  confirmLabel,
  onConfirm,
  variant = "secondary",
  disabled,
}: {
  label: string;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  variant?: "secondary" | "danger" | "ghost";
  disabled?: boolean;
}) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger className={buttonClass(variant)} disabled={disabled}>
        {label}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlay} />
        <AlertDialog.Content className={panel}>
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 text-sm text-slate-700 dark:text-slate-300">{description}</div>
          </AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel className={buttonClass("secondary")}>Cancel</AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="danger" onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
