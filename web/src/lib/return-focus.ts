import { useEffect, useLayoutEffect, useRef } from "react";

/**
 * Gives focus back to where it was when a dialog opened from code closes. Radix returns focus to
 * a `Dialog.Trigger`; a `Modal` opened by state (a "New …" button, a secret shown after a
 * confirmation) has none, and focus would fall to the page's body.
 */
export function useReturnFocus(open: boolean) {
  const origin = useRef<HTMLElement | null>(null);
  // A layout effect runs before the dialog's own (passive) effect moves focus into it.
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement) origin.current = document.activeElement;
  }, [open]);
  // A passive effect runs after the dialog's focus trap is gone.
  useEffect(() => {
    if (open) return;
    const element = origin.current;
    origin.current = null;
    if (element?.isConnected) element.focus();
  }, [open]);
}
