import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { batchGet } from "./batch";
import { idFromSortKey, keys } from "./keys";
import { forEachPage } from "./pagination";
import { SUBMISSION_STATUSES, type SubmissionStatus } from "./shapes";

/**
 * The live counts of forms and webhooks (docs/data-model.md, "Counting a form's submissions"):
 * small items of their own, in no index, kept by the bookkeeper from the table stream
 * (lib/store/bookkeeping.ts) and, for a form, moved by moderation in the same transaction as the
 * flag (lib/store/moderation.ts). Reading them is one GetItem, or one BatchGetItem or Query per
 * page of a list, whatever the size of the form.
 *
 * - A form's counts (`FORM#<formId>` / `COUNTS`): `inbox` and `spam`, its stored submissions
 *   now; raised by a stored submission, lowered by a removed one (whatever removed it),
 *   moved by moderation.
 * - A webhook's counts (`WEBHOOK_COUNTS#<siteId>` / `WEBHOOK#<webhookId>`): `submissionCount`, the
 *   submissions it received that are still stored (raised by a stored one, lowered by a removed
 *   one, whatever removed it), and `lastReceivedAt`, the newest one's `createdAt` (never lowered).
 *
 * When its form or webhook is deleted, the counts item becomes a tombstone (`gone`, expiring
 * after COUNTS_TOMBSTONE_SECONDS): a stream record still on its way then finds it and changes
 * nothing, instead of creating a counts item nobody will ever delete.
 */

/** Longer than the stream keeps a record (24 h) and than the bookkeeper retries one (its MaximumRecordAgeInSeconds). */
export const COUNTS_TOMBSTONE_SECONDS = 7 * 86_400;

export interface FormCounts {
  inbox: number;
  spam: number;
  statuses?: StatusCounts;
}

/**
 * A form's inbox submissions per status (docs/triage.md). Only the statuses a person set are
 * counted on the item (`statusContacted`, ...: moved by the bookkeeper from the stream); `new`
 * is the inbox less those, so a submission stored before statuses existed, and every one intake
 * stores, is counted as new without a write.
 */
export type StatusCounts = Record<SubmissionStatus, number>;
export type StatusDeltas = Partial<Record<Exclude<SubmissionStatus, "new">, number>>;

const COUNTED_STATUSES = SUBMISSION_STATUSES.filter((s): s is Exclude<SubmissionStatus, "new"> => s !== "new");
const statusAttribute = (status: Exclude<SubmissionStatus, "new">) => `status${status[0]?.toUpperCase()}${status.slice(1)}`;
/** The attributes a forms list reads beside inbox and spam. */
export const STATUS_ATTRIBUTES = COUNTED_STATUSES.map(statusAttribute);

/** The statuses of a form's counts item; `new` is what the inbox holds beyond the others. */
export function statusCountsOf(item: Record<string, unknown> | undefined): StatusCounts {
  const counted = Object.fromEntries(
    COUNTED_STATUSES.map((s) => [s, Math.max(0, Number(item?.[statusAttribute(s)] ?? 0))]),
  ) as Omit<StatusCounts, "new">;
  const others = Object.values(counted).reduce((sum, n) => sum + n, 0);
  return { new: Math.max(0, formCountsOf(item).inbox - others), ...counted };
}

export interface WebhookCounts {
  submissionCount: number;
  lastReceivedAt: string | null;
}

const FORM_COUNTS_TYPE = "form_counts";
const WEBHOOK_COUNTS_TYPE = "webhook_counts";

/**
 * Read as at least 0: a moderation of a submission stored before the counters existed moves a
 * count its form never had (docs/data-model.md says when that happens).
 */
const formCountsOf = (item: Record<string, unknown> | undefined): FormCounts => ({
  inbox: Math.max(0, Number(item?.inbox ?? 0)),
  spam: Math.max(0, Number(item?.spam ?? 0)),
});

const withStatuses = (item: Record<string, unknown> | undefined): FormCounts => ({
  ...formCountsOf(item),
  statuses: statusCountsOf(item),
});

/** As stored: below zero when removals of submissions counted on the webhook item outnumber what came since (webhookCountsWithLegacy). */
const webhookCountsOf = (item: Record<string, unknown> | undefined): WebhookCounts => ({
  submissionCount: Number(item?.submissionCount ?? 0),
  lastReceivedAt: typeof item?.lastReceivedAt === "string" ? item.lastReceivedAt : null,
});

/** A form's counts (one eventually consistent GetItem); zeros before its first submission. */
export async function getFormCounts(formId: string): Promise<FormCounts> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.formCounts(formId) }));
  return withStatuses(out.Item);
}

/** The counts of a page of forms, in one BatchGetItem (a page holds at most 100 forms). */
export async function getFormsCounts(formIds: readonly string[]): Promise<Map<string, FormCounts>> {
  const items = await batchGet(
    formIds.map((id) => keys.formCounts(id)),
    { projection: ["inbox", "spam", ...STATUS_ATTRIBUTES].join(", ") },
  );
  return new Map(formIds.map((id, i) => [id, withStatuses(items[i])]));
}

/** A webhook's counts (one eventually consistent GetItem). */
export async function getWebhookCounts(siteId: string, webhookId: string): Promise<WebhookCounts> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhookCounts(siteId, webhookId) }));
  return webhookCountsOf(out.Item);
}

/**
 * The counts of every webhook of a site, by webhook id: one Query of the site's counts partition
 * (at most MAX_WEBHOOKS_PER_SITE items of about 100 bytes, plus the tombstones of webhooks
 * deleted in the last week, which are left out), so it runs beside the query of the webhooks.
 */
export async function getSiteWebhookCounts(siteId: string): Promise<Map<string, WebhookCounts>> {
  const counts = new Map<string, WebhookCounts>();
  await forEachPage(
    {
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.webhookCountsPartition(siteId) },
    },
    (out) => {
      for (const item of out.Items ?? []) {
        if (item.gone !== true) counts.set(idFromSortKey(String(item.sk)), webhookCountsOf(item));
      }
    },
  );
  return counts;
}

/**
 * Adds to a form's counts, creating the item at its form's first count. Refused (its
 * `ReturnValuesOnConditionCheckFailure` says which) when the form is gone (a tombstone), and,
 * with `mustExist`, when there is no item: a batch that only lowers the counts of a form without
 * one is of a form purged to the end, or of one whose submissions were stored before the
 * counters existed (it would read below zero).
 */
export function formCountsUpdate(
  formId: string,
  deltas: { inbox: number; spam: number; statuses?: StatusDeltas },
  { mustExist = false } = {},
) {
  // Only the statuses that move are named: a submission's store or a moderation writes what it did before.
  const moved = COUNTED_STATUSES.filter((s) => (deltas.statuses?.[s] ?? 0) !== 0);
  return {
    TableName: tableName(),
    Key: keys.formCounts(formId),
    UpdateExpression: `ADD inbox :inbox, spam :spam${moved.map((s) => `, ${statusAttribute(s)} :${s}`).join("")} SET #type = if_not_exists(#type, :type)`,
    ConditionExpression: mustExist ? "attribute_exists(pk) AND attribute_not_exists(gone)" : "attribute_not_exists(gone)",
    ExpressionAttributeNames: { "#type": "type" },
    ExpressionAttributeValues: {
      ":inbox": deltas.inbox,
      ":spam": deltas.spam,
      ":type": FORM_COUNTS_TYPE,
      ...Object.fromEntries(moved.map((s) => [`:${s}`, deltas.statuses?.[s]])),
    },
    ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
  };
}

/**
 * Counts `received` new submissions on a webhook (negative: removed ones), the newest received at
 * `lastReceivedAt`. Batches of different stream shards apply in any order, so `lastReceivedAt` is
 * set only when it is newer than the stored one (with `keepLast`, the caller already knows it is
 * not, and only the count moves). Refused when the webhook is gone (a tombstone), or, without
 * `keepLast`, when a newer `lastReceivedAt` is stored. Without `lastReceivedAt` (a run that only
 * removed submissions) only the count moves, and only on an existing item: a webhook without one
 * is gone for longer than its tombstone lasts, or received them before the bookkeeper counted
 * (its item's own frozen count holds them), and a count below zero would be kept forever.
 */
export function webhookCountsUpdate(
  siteId: string,
  webhookId: string,
  received: number,
  lastReceivedAt: string | undefined,
  { keepLast = false } = {},
) {
  const setsTime = !keepLast && lastReceivedAt !== undefined;
  return {
    TableName: tableName(),
    Key: keys.webhookCounts(siteId, webhookId),
    UpdateExpression: setsTime
      ? "ADD submissionCount :n SET lastReceivedAt = :at, #type = if_not_exists(#type, :type)"
      : "ADD submissionCount :n SET #type = if_not_exists(#type, :type)",
    ConditionExpression: setsTime
      ? "attribute_not_exists(gone) AND (attribute_not_exists(lastReceivedAt) OR lastReceivedAt <= :at)"
      : lastReceivedAt === undefined
        ? "attribute_exists(pk) AND attribute_not_exists(gone)"
        : "attribute_not_exists(gone)",
    ExpressionAttributeNames: { "#type": "type" },
    ExpressionAttributeValues: {
      ":n": received,
      ":type": WEBHOOK_COUNTS_TYPE,
      ...(setsTime ? { ":at": lastReceivedAt } : {}),
    },
    ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
  };
}

const tombstone = (key: { pk: string; sk: string }, type: string, now: string) => ({
  TableName: tableName(),
  Item: { ...key, type, gone: true, ttl: Math.floor(Date.parse(now) / 1000) + COUNTS_TOMBSTONE_SECONDS },
});

/** The Put that turns a deleted form's counts into a tombstone. */
export const formCountsTombstone = (formId: string, now: string) => tombstone(keys.formCounts(formId), FORM_COUNTS_TYPE, now);

/** The Put that turns a deleted webhook's counts into a tombstone (in the deletion's transaction). */
export const webhookCountsTombstone = (siteId: string, webhookId: string, now: string) =>
  tombstone(keys.webhookCounts(siteId, webhookId), WEBHOOK_COUNTS_TYPE, now);

/**
 * A webhook's counts as the API shows them: those its own item held before the bookkeeper kept
 * them (intake counted on the webhook item until then; frozen since, 0 for newer webhooks) plus
 * the live ones, which removals of those older submissions may have taken below zero; read as at
 * least 0.
 */
export function webhookCountsWithLegacy(legacy: WebhookCounts, live: WebhookCounts): WebhookCounts {
  const latest = [legacy.lastReceivedAt, live.lastReceivedAt].filter((at): at is string => at !== null).sort();
  return { submissionCount: Math.max(0, legacy.submissionCount + live.submissionCount), lastReceivedAt: latest.at(-1) ?? null };
}
