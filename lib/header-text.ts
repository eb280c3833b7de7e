/**
 * Submitted text that ends up in an email's header (a notification's subject, its sender's
 * display name): one line, capped, never syntax. Pure, so intake stores it so and the
 * notification applies it again to anything stored before.
 */

/** Control characters (CR, LF, NUL, C1, the Unicode line separators) and runs of white space become one space. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g;

/** The text on one line: control characters, line separators and runs of white space become one space. */
export const flatLine = (text: string) => text.replace(BREAKS, " ").trim();

/** One line of at most `max` characters (code points), cut with `…` when longer. */
export function oneLine(text: string, max: number): string {
  const flat = flatLine(text);
  const chars = [...flat];
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`
    : flat;
}

/** The longest subject a submitter may give the notification (the confirmation's own bar). */
export const SUBJECT_MAX = 200;
/** The longest sender display name a submitter may give the notification. */
export const SENDER_NAME_MAX = 64;

/**
 * A submitter's sender display name (Web3Forms' `from_name`): one line, capped, quotes, angle
 * brackets and backslashes removed; none (undefined) when it holds an `@`, so it can never pass
 * for an address. The From address stays the deployment's (NOTIFY_FROM).
 */
export function senderName(text: string): string | undefined {
  if (text.includes("@")) return undefined;
  return oneLine(text.replace(/["'<>\\`]/g, ""), SENDER_NAME_MAX) || undefined;
}
