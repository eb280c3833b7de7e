/**
 * The statuses of a lead's workflow (docs/dashboard.md, "Working the leads"), in the
 * order the keys 1–5 set them. Apart from lib/triage.ts so the router's search validation does not
 * pull the triage queries into the entry chunk.
 */
export const STATUSES = ["new", "contacted", "qualified", "won", "lost"] as const;
export type Status = (typeof STATUSES)[number];

export const STATUS_LABELS: Record<Status, string> = {
  new: "New",
  contacted: "Contacted",
  qualified: "Qualified",
  won: "Won",
  lost: "Lost",
};

export const isStatus = (value: unknown): value is Status => STATUSES.some((s) => s === value);
