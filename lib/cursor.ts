/**
 * The one codec of the cursors Inlet answers: a cursor is the base64url of a small JSON object,
 * opaque to the caller. What it names, and how it is checked against the request it comes back
 * with, is its user's: a list's start key (lib/store/cursor.ts), a filtered list's sort key
 * (lib/store/view-entries.ts), an erasure's or a subject request's walk position
 * (lib/submissions.ts, lib/subject-requests.ts). A leaf, so the store and the domain share it.
 */

export const encodeCursorValue = (value: object): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The object a cursor holds; undefined when it is not base64url JSON of an object. */
export function decodeCursorValue(cursor: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
