/**
 * The look of a Radix tab trigger under a bordered tab list: the selected tab is underlined (a
 * bar, not colour alone) and Radix marks it `aria-selected`.
 */
export const underlineTab =
  "border-b-2 border-transparent px-3 py-2 text-sm font-medium data-[state=active]:border-indigo-700 dark:data-[state=active]:border-indigo-300";
