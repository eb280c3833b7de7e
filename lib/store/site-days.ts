import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { batchGet } from "./batch";
import { idFromSortKey, keys } from "./keys";

/**
 * A site's daily counts (docs/data-model.md, "Daily counts"): one item per site and UTC day,
 * kept by the bookkeeper from the table stream as submissions are stored and moved by
 * moderation, never computed from the submissions. The item holds `inbox` and `spam`, and per
 * source (webhook) and per form the inbox submissions, as top-level attributes named
 * `w:<webhookId>` and `f:<formId>` so that `ADD` needs no map to exist first. Deletions do not
 * lower them: they are the history of what was received.
 */

/** Day items are kept this long after their day (the overview reads 30 days; longer views may follow). */
const DAY_TTL_SECONDS = 400 * 86_400;
const SOURCE = "w:";
const FORM = "f:";

/** The UTC day (`YYYY-MM-DD`) of an ISO timestamp. */
export const dayOf = (iso: string) => iso.slice(0, 10);

/** What a count needs to know of a submission: the stream's image of it, or a moderated one. */
export interface CountedSubmission {
  siteId: string;
  webhookId: string;
  formId: string;
  createdAt: string;
  /**
   * Brought by an import (lib/import-job.ts): counted on its day and form, never by source (no
   * webhook received it; `webhookId` is its import's id) nor on a webhook's counts.
   */
  imported?: unknown;
}

export interface SiteDay {
  day: string;
  inbox: number;
  spam: number;
  /** Inbox submissions per webhook id. */
  bySource: Record<string, number>;
  /** Inbox submissions per form id. */
  byForm: Record<string, number>;
}

/** What to add to one day item: its inbox and spam, and the inbox per source and per form. */
export interface DayDeltas {
  inbox: number;
  spam: number;
  bySource: ReadonlyMap<string, number>;
  byForm: ReadonlyMap<string, number>;
}

const ttlOf = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + DAY_TTL_SECONDS;

/**
 * The update that adds `deltas` to a site's day, creating the item when it is the day's first
 * (an UpdateItem's input, or an Update of a transaction): the bookkeeper's batches
 * (lib/store/bookkeeping.ts) and a moderation's move (lib/store/moderation.ts). Sources and forms
 * count the inbox only: the busiest are those bringing real submissions. Unconditional: a day
 * item has no owner that could be gone.
 */
export function siteDayUpdate(siteId: string, day: string, deltas: DayDeltas) {
  const adds = ["#inbox :inbox", "#spam :spam"];
  const names: Record<string, string> = { "#inbox": "inbox", "#spam": "spam", "#ttl": "ttl", "#type": "type" };
  const values: Record<string, unknown> = {
    ":inbox": deltas.inbox,
    ":spam": deltas.spam,
    ":ttl": ttlOf(day),
    ":type": "site_day",
  };
  const add = (prefix: string, tag: string, counts: ReadonlyMap<string, number>) => {
    let i = 0;
    for (const [id, n] of counts) {
      if (n === 0) continue;
      adds.push(`#${tag}${i} :${tag}${i}`);
      names[`#${tag}${i}`] = `${prefix}${id}`;
      values[`:${tag}${i}`] = n;
      i++;
    }
  };
  add(SOURCE, "w", deltas.bySource);
  add(FORM, "f", deltas.byForm);
  return {
    TableName: tableName(),
    Key: keys.siteDay(siteId, day),
    UpdateExpression: `ADD ${adds.join(", ")} SET #ttl = if_not_exists(#ttl, :ttl), #type = if_not_exists(#type, :type)`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** The deltas of one submission moving between inbox and spam on the day it was received. */
export function movedDeltas(submission: CountedSubmission, toSpam: boolean): DayDeltas {
  const inbox = toSpam ? -1 : 1;
  return {
    inbox,
    spam: -inbox,
    bySource: submission.imported ? new Map() : new Map([[submission.webhookId, inbox]]),
    byForm: new Map([[submission.formId, inbox]]),
  };
}

/**
 * The site's days from `from` to `to` (inclusive, `YYYY-MM-DD`) that have counts, oldest first:
 * one Query (31 items of a few hundred bytes, one page). Counts are never below 0 as read: a
 * moderation of a submission received before the counters existed moves a count its day never
 * had.
 */
export async function readSiteDays(siteId: string, from: string, to: string): Promise<SiteDay[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
      ExpressionAttributeValues: {
        ":pk": keys.siteDayPartition(siteId),
        ":from": keys.siteDaySortKey(from),
        ":to": keys.siteDaySortKey(to),
      },
    }),
  );
  return (out.Items ?? []).map((item) => {
    const bySource: Record<string, number> = {};
    const byForm: Record<string, number> = {};
    for (const [name, value] of Object.entries(item)) {
      if (typeof value !== "number") continue;
      if (name.startsWith(SOURCE)) bySource[name.slice(SOURCE.length)] = Math.max(0, value);
      else if (name.startsWith(FORM)) byForm[name.slice(FORM.length)] = Math.max(0, value);
    }
    return {
      day: idFromSortKey(String(item.sk)),
      inbox: Math.max(0, Number(item.inbox ?? 0)),
      spam: Math.max(0, Number(item.spam ?? 0)),
      bySource,
      byForm,
    };
  });
}

/**
 * The names of webhooks and forms, in one BatchGetItem (at most 100 keys; the overview asks for
 * 5 + 5 + 20): the id maps to its name, or to null when it is gone (deleted, or a form being
 * purged). Only the names and owners are read.
 */
export async function namesOf(webhookIds: string[], formIds: string[]): Promise<Map<string, string | null>> {
  const items = await batchGet([...webhookIds.map((id) => keys.webhook(id)), ...formIds.map((id) => keys.form(id))], {
    projection: "id, #name, deletedAt",
    names: { "#name": "name" },
  });
  const names = new Map<string, string | null>([...webhookIds, ...formIds].map((id) => [id, null]));
  for (const item of items) {
    if (typeof item?.id === "string" && typeof item.name === "string" && !item.deletedAt) names.set(item.id, item.name);
  }
  return names;
}
