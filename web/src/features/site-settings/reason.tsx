/** Why a control is disabled, next to it, in words. */
export function Reason({ text }: { text?: string | undefined }) {
  if (!text) return null;
  return <p className="text-sm text-slate-700 dark:text-slate-300">{text}</p>;
}
