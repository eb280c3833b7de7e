/**
 * The colours of tags (the API's `TAG_COLOURS`, lib/store/shapes.ts), each a light and a dark
 * pair: a -900 text on a -100 background in the light theme, a -100 text on a -900 background in
 * the dark one. Each pair contrasts at least 7:1 (axe checks 4.5:1 on every page showing tags);
 * the name is always written, so a tag never rests on its colour alone.
 * The classes are literal so Tailwind compiles them.
 */
export const TAG_COLOUR_CLASSES = {
  gray: "bg-slate-100 text-slate-900 ring-slate-300 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600",
  red: "bg-red-100 text-red-900 ring-red-300 dark:bg-red-900 dark:text-red-100 dark:ring-red-700",
  orange: "bg-orange-100 text-orange-900 ring-orange-300 dark:bg-orange-900 dark:text-orange-100 dark:ring-orange-700",
  amber: "bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-900 dark:text-amber-100 dark:ring-amber-700",
  green: "bg-green-100 text-green-900 ring-green-300 dark:bg-green-900 dark:text-green-100 dark:ring-green-700",
  teal: "bg-teal-100 text-teal-900 ring-teal-300 dark:bg-teal-900 dark:text-teal-100 dark:ring-teal-700",
  blue: "bg-blue-100 text-blue-900 ring-blue-300 dark:bg-blue-900 dark:text-blue-100 dark:ring-blue-700",
  indigo: "bg-indigo-100 text-indigo-900 ring-indigo-300 dark:bg-indigo-900 dark:text-indigo-100 dark:ring-indigo-700",
  purple: "bg-purple-100 text-purple-900 ring-purple-300 dark:bg-purple-900 dark:text-purple-100 dark:ring-purple-700",
  pink: "bg-pink-100 text-pink-900 ring-pink-300 dark:bg-pink-900 dark:text-pink-100 dark:ring-pink-700",
} as const;

export type TagColour = keyof typeof TAG_COLOUR_CLASSES;

/** Every colour, in the order the tag form offers them. */
export const TAG_COLOURS = Object.keys(TAG_COLOUR_CLASSES) as TagColour[];

const classesOf = (colour: string) => TAG_COLOUR_CLASSES[colour as TagColour] ?? TAG_COLOUR_CLASSES.gray;

/** A tag's name on its colour. */
export function TagChip({ name, colour }: { name: string; colour: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${classesOf(colour)}`}
    >
      {name}
    </span>
  );
}
