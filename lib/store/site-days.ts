import { QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { batchGet } from "./batch";
import { idFromSortKey, keys } from "./keys";

/**
 * A site's daily counts (docs/data-model.md, "Daily counts"): one item per site and UTC day,
 * written as submissions are stored and moderated, never computed from the submissions. The
 * item holds `inbox` and `spam`, and per source (webhook) and per form the inbox submissions,
 * as top-level attributes named `w:<webhookId>` and `f:<formId>` so that `ADD` needs no map to
 * exist first. Deletions do not lower them: they are the history of what was received.
 */

/** Day items are kept this long after their day (the overview reads 30 days; longer views may follow). */
const DAY_TTL_SECONDS = 400 * 86_400;
const SOURCE = "w:";
const FORM = "f:";

/** The UTC day (`YYYY-MM-DD`) of an ISO timestamp. */
export const dayOf = (iso: string) => iso.slice(0, 10);

/** What a count needs to know of a submission. */
export interface CountedSubmission {
  siteId: string;
  webhookId: string;
  formId: string;
  createdAt: string;
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

const ttlOf = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + DAY_TTL_SECONDS;

async function addToDay(submission: CountedSubmission, deltas: { inbox: number; spam: number }): Promise<void> {
  const day = dayOf(submission.createdAt);
  const adds = ["#inbox :inbox", "#spam :spam"];
  const names: Record<string, string> = { "#inbox": "inbox", "#spam": "spam", "#ttl": "ttl", "#type": "type" };
  const values: Record<string, unknown> = {
    ":inbox": deltas.inbox,
    ":spam": deltas.spam,
    ":ttl": ttlOf(day),
    ":type": "site_day",
  };
  // Sources and forms count the inbox only: the busiest are those bringing real submissions.
  if (deltas.inbox !== 0) {
    adds.push("#source :inbox", "#form :inbox");
    names["#source"] = `${SOURCE}${submission.webhookId}`;
    names["#form"] = `${FORM}${submission.formId}`;
  }
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.siteDay(submission.siteId, day),
      UpdateExpression: `ADD ${adds.join(", ")} SET #ttl = if_not_exists(#ttl, :ttl), #type = if_not_exists(#type, :type)`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/** Counts a stored submission on its day (`by = -1` takes the count back when its write did not store). */
export function countOnSiteDay(submission: CountedSubmission, isSpam: boolean, by: 1 | -1 = 1): Promise<void> {
  return addToDay(submission, isSpam ? { inbox: 0, spam: by } : { inbox: by, spam: 0 });
}

/** Moves a moderated submission between inbox and spam on the day it was received. */
export function moveOnSiteDay(submission: CountedSubmission, toSpam: boolean): Promise<void> {
  return addToDay(submission, toSpam ? { inbox: -1, spam: 1 } : { inbox: 1, spam: -1 });
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
