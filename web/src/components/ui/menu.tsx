import { DropdownMenu } from "radix-ui";
import { buttonClass } from "./button";

export interface MenuItem {
  label: string;
  onSelect: () => void;
}

/**
 * A button that opens a menu of actions (Radix: arrow keys move, Enter picks, Escape closes and
 * gives focus back to the button). `label` names the button; `items` are the actions.
 * Not modal: a modal menu hides the rest of the page with `aria-hidden` while its links and
 * fields stay focusable (axe: aria-hidden-focus); the menu button pattern needs no modality, and
 * the menu still closes on Escape, Tab or a click outside.
 */
export function MenuButton({
  label,
  items,
  disabled = false,
}: {
  label: string;
  items: readonly MenuItem[];
  disabled?: boolean;
}) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={buttonClass("secondary")} disabled={disabled || items.length === 0}>
        {label} <span aria-hidden="true">▾</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          collisionPadding={8}
          className="z-50 max-h-[60vh] min-w-[12rem] overflow-y-auto rounded-md border border-slate-200 bg-white p-1 text-sm text-slate-900 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        >
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.label}
              onSelect={item.onSelect}
              className="cursor-pointer rounded px-3 py-2 outline-none data-[highlighted]:bg-indigo-100 data-[highlighted]:text-indigo-950 dark:data-[highlighted]:bg-indigo-900 dark:data-[highlighted]:text-white"
            >
              {item.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
