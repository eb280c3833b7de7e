import type { Principal } from "./auth/principal";
import { notFound } from "./errors";
import { shownUrl } from "./outbound/chat/kinds";
import { type FailingEndpoint, listFailingEndpoints } from "./store/failing-endpoints";
import { kindOf } from "./store/outbound-endpoints";
import { namesOf, readSiteDays, type SiteDay } from "./store/site-days";
import { getSite } from "./store/sites";
import * as z from "./validation";

/**
 * A site's overview (docs/api.md, "Site overview"): submissions per day, the share of spam, the
 * busiest sources and forms, and the outbound endpoints failing now, all read from the daily
 * counts and the failing list the pipeline keeps (lib/store/site-days.ts,
 * lib/store/failing-endpoints.ts), never from the submissions. Two round trips: the site, its
 * days and its failing endpoints side by side, then one BatchGetItem for the names.
 */

export const OVERVIEW_DEFAULT_DAYS = 30;
export const OVERVIEW_MAX_DAYS = 90;
/** The busiest sources and forms listed. */
export const OVERVIEW_TOP = 5;

export const overviewQuery = /* @__PURE__ */ z.shared(() =>
  z.object({
    days: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(OVERVIEW_MAX_DAYS)), OVERVIEW_DEFAULT_DAYS),
    to: z.optional(z.iso.date()),
  }),
);

const DAY_MS = 86_400_000;
const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every day from `to` back `days` days, oldest first. */
export function dayRange(to: string, days: number): string[] {
  const end = Date.parse(`${to}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => dayString(end - (days - 1 - i) * DAY_MS));
}

/** The ids with the highest sums over the days, highest first (ties by id, so answers are stable). */
function busiest(days: SiteDay[], pick: (day: SiteDay) => Record<string, number>): [string, number][] {
  const sums = new Map<string, number>();
  for (const day of days) for (const [id, n] of Object.entries(pick(day))) sums.set(id, (sums.get(id) ?? 0) + n);
  return [...sums]
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, OVERVIEW_TOP);
}

function failingView(endpoint: FailingEndpoint, formName: string | null) {
  return {
    endpointId: endpoint.id,
    formId: endpoint.formId,
    formName,
    kind: kindOf(endpoint),
    url: shownUrl(endpoint),
    description: endpoint.description,
    isEnabled: endpoint.isEnabled,
    disabledReason: endpoint.disabledReason,
    deliveryId: endpoint.failing.deliveryId,
    status: endpoint.failing.status,
    statusCode: endpoint.failing.statusCode,
    error: endpoint.failing.error,
    failedAt: endpoint.failing.failedAt,
    nextAttemptAt: endpoint.failing.nextAttemptAt,
    failingSince: endpoint.failingSince,
  };
}

export async function siteOverview(
  principal: Principal,
  siteId: string,
  query: { days: number; to?: string | undefined },
  now = Date.now(),
) {
  const range = dayRange(query.to ?? dayString(now), query.days);
  const from = range[0] as string;
  const to = range[range.length - 1] as string;
  // Read side by side; the answer is only given once the site is known to be the caller's.
  const [site, stored, failing] = await Promise.all([
    getSite(principal.orgId, siteId),
    readSiteDays(siteId, from, to),
    listFailingEndpoints(siteId),
  ]);
  if (!site) throw notFound("Site");
  const byDay = new Map(stored.map((d) => [d.day, d]));
  const days = range.map((date) => ({ date, inbox: byDay.get(date)?.inbox ?? 0, spam: byDay.get(date)?.spam ?? 0 }));
  const inbox = days.reduce((sum, d) => sum + d.inbox, 0);
  const spam = days.reduce((sum, d) => sum + d.spam, 0);
  const sources = busiest(stored, (d) => d.bySource);
  const forms = busiest(stored, (d) => d.byForm);
  const own = failing.filter((e) => e.orgId === principal.orgId);
  const formIds = [...new Set([...forms.map(([id]) => id), ...own.map((e) => e.formId)])];
  const names =
    sources.length + formIds.length > 0
      ? await namesOf(
          sources.map(([id]) => id),
          formIds,
        )
      : new Map<string, string | null>();
  return {
    site: { id: site.id, name: site.name },
    from,
    to,
    days,
    totals: { inbox, spam, spamShare: inbox + spam === 0 ? 0 : Math.round((spam / (inbox + spam)) * 1000) / 1000 },
    topSources: sources.map(([webhookId, count]) => ({ webhookId, name: names.get(webhookId) ?? null, count })),
    topForms: forms.map(([formId, count]) => ({ formId, name: names.get(formId) ?? null, count })),
    failingDeliveries: own.map((e) => failingView(e, names.get(e.formId) ?? null)),
  };
}
