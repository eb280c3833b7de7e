import { AppError } from "./errors";
import * as z from "./validation";

/** A list's `from`/`to` query parameter: an ISO 8601 date (its whole UTC day) or date-time. */
export const isoDate = /* @__PURE__ */ z.shared(() => z.union([z.iso.date(), z.iso.datetime({ offset: true })]));

const DAY_MS = 24 * 3600 * 1000;
const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * A list's `from`/`to` as sort key bounds: `from` inclusive, `before` exclusive. `to` is inclusive:
 * a date includes its whole (UTC) day, a date-time its own millisecond. 400 when `to` is before `from`.
 */
export function dateBounds(from: string | undefined, to: string | undefined): { from?: string; before?: string } {
  const bounds: { from?: string; before?: string } = {};
  if (from) bounds.from = new Date(from).toISOString();
  if (to) bounds.before = new Date(Date.parse(to) + (isDateOnly(to) ? DAY_MS : 1)).toISOString();
  if (bounds.from && bounds.before && bounds.from >= bounds.before) {
    throw new AppError("VALIDATION_ERROR", "The request is not valid", [{ path: "to", message: "Must not be before from" }]);
  }
  return bounds;
}
