/**
 * Text rules shared by the field collector (./fields.ts) and the advertising-platform
 * normalization (./ads-lead.ts): forbidden names, well-formed text, lengths in code points.
 */

/**
 * Names that could reach an object's prototype if a key or a path were ever followed: any name
 * containing `__proto__`, and any with `constructor` or `prototype` as one of its segments
 * (between dots, double underscores or brackets). Dropped and listed in metadata.ignoredFields.
 */
export function isForbiddenName(name: string): boolean {
  if (name.includes("__proto__")) return true;
  return name.split(/\.|__|\[|\]/).some((segment) => segment === "constructor" || segment === "prototype");
}

/**
 * Lone UTF-16 surrogates (JSON's `"\ud800"`) have no UTF-8 form, and SQS refuses the
 * noncharacters U+FFFE and U+FFFF in a message (the stream record of the submission could never
 * reach the queue): each becomes U+FFFD before storage.
 */
export const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g, "\uFFFD");

/** Length in characters (Unicode code points), as the limits count it. */
export function charLength(text: string): number {
  let surrogates = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogates++;
        i++;
      }
    }
  }
  return text.length - surrogates;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function scalarText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}
