/**
 * Retention per form (docs/privacy.md, "Retention"): how many days a form keeps its inbox and its
 * spam submissions before DynamoDB's TTL deletes them. Plain rules (no table access): intake,
 * moderation, the re-dating job and the views all compute a submission's expiry here, so they
 * agree to the second.
 */

import type { Retention } from "./store/expiry";

export type { Retention } from "./store/expiry";
export { isExpired } from "./store/expiry";

/** As Basin does: the inbox is kept, spam is deleted after 30 days. */
export const DEFAULT_RETENTION: Readonly<Retention> = Object.freeze({ inboxDays: null, spamDays: 30 });

/** The bounds of a retention in days (ten years at most). */
export const RETENTION_DAYS = { min: 1, max: 3650 } as const;

const DAY_SECONDS = 86_400;

/** A stored retention, or the defaults for a form or site saved before retention existed. */
export const retentionOf = (holder: { retention?: Retention | undefined }): Retention => ({
  inboxDays: holder.retention?.inboxDays ?? (holder.retention ? null : DEFAULT_RETENTION.inboxDays),
  spamDays: holder.retention?.spamDays ?? (holder.retention ? null : DEFAULT_RETENTION.spamDays),
});

/** A site's defaults for its new forms (absent: the defaults). */
export const defaultRetentionOf = (site: { defaultRetention?: Retention | undefined }): Retention =>
  retentionOf({ retention: site.defaultRetention });

/** `retention` with the given values changed (undefined keeps a value, null keeps forever). */
export const mergedRetention = (current: Retention, input: Partial<Retention> | undefined): Retention => ({
  inboxDays: input?.inboxDays === undefined ? current.inboxDays : input.inboxDays,
  spamDays: input?.spamDays === undefined ? current.spamDays : input.spamDays,
});

export const sameRetention = (a: Retention, b: Retention) => a.inboxDays === b.inboxDays && a.spamDays === b.spamDays;

/**
 * A submission's TTL (epoch seconds): its arrival plus the days of its current state, or
 * undefined when that state is kept forever. The arrival, not the moderation: flagging a
 * six-week-old submission as spam under a 30-day spam retention makes it due at once.
 */
export function expiryOf(createdAt: string, isSpam: boolean, retention: Retention): number | undefined {
  const days = isSpam ? retention.spamDays : retention.inboxDays;
  if (days === null) return undefined;
  return Math.floor(Date.parse(createdAt) / 1000) + days * DAY_SECONDS;
}

/** The API's `expiresAt`: the TTL as an ISO date-time, or null when kept. */
export const expiresAtOf = (ttl: unknown): string | null =>
  typeof ttl === "number" && Number.isFinite(ttl) ? new Date(ttl * 1000).toISOString() : null;
