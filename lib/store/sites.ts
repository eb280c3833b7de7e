import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionFailedItem, db, isConditionFailure, tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditEntriesNamed, auditNamed } from "./audit-log";
import type { Retention } from "./expiry";
import { SITE_FORM_COUNTER } from "./forms";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import { forEachPage, queryAll, queryPage } from "./pagination";
import { GSI1 } from "./table-definition";
import { transact } from "./transactions";

export const CAPTCHA_PROVIDERS = ["score", "challenge"] as const;

export interface CaptchaSettings {
  provider: (typeof CAPTCHA_PROVIDERS)[number];
  siteKey: string;
  secretKey: string;
  /** Only for the score provider: the lowest passing score (0.0 to 1.0). */
  minScore?: number;
}

export interface Site {
  id: string;
  orgId: string;
  name: string;
  domain: string | null;
  isActive: boolean;
  referencePrefix: string;
  captcha: CaptchaSettings | null;
  /** The retention copied into each new form of the site; absent on older sites: the defaults. */
  defaultRetention?: Retention;
  createdAt: string;
  updatedAt: string;
}

/** Counters kept on the site item (webhookCount, formCount) are not part of the site's settings. */
const toSite = (item: Record<string, unknown>): Site => {
  return fromItem<Site>(item, "webhookCount", SITE_FORM_COUNTER);
};

export async function putSite(site: Site): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.site(site.orgId, site.id), type: "site", ...site },
      ConditionExpression: "attribute_not_exists(pk)",
    }),
  );
}

export async function getSite(orgId: string, siteId: string): Promise<Site | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.site(orgId, siteId) }));
  return out.Item ? toSite(out.Item) : undefined;
}

/**
 * A site with what would keep it from being deleted, read from the counters on the same item
 * (one read). A form stored before sites counted their forms is not in the count; the delete
 * itself still finds it (`deleteSite`).
 */
export async function getSiteWithContents(
  orgId: string,
  siteId: string,
): Promise<{ site: Site; contents: SiteContents } | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.site(orgId, siteId) }));
  return out.Item ? { site: toSite(out.Item), contents: counted(out.Item) } : undefined;
}

/** The webhook and form counters kept on a site item. */
const counted = (item: Record<string, unknown>): SiteContents => {
  const read = (name: string) => Math.max(0, Number(item[name] ?? 0));
  return { webhooks: read("webhookCount"), forms: read(SITE_FORM_COUNTER) };
};

export const listSites = (orgId: string, limit: number, cursor?: string) =>
  queryPage({
    partition: keys.organization(orgId).pk,
    prefix: keys.sitePrefix(),
    limit,
    ...(cursor ? { cursor } : {}),
    map: toSite,
  });

/**
 * Reserves the next `count` reference numbers of a site: one atomic `ADD seq :count` on its own
 * item (the site sequence), answering the block's last number. Two calls never get a number in
 * common, whichever instance makes them (lib/intake/reference-numbers.ts hands the block out).
 */
export async function reserveReferenceNumbers(siteId: string, count: number): Promise<{ first: number; last: number }> {
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.siteSequence(siteId),
      UpdateExpression: "ADD #seq :count SET #type = if_not_exists(#type, :type)",
      ExpressionAttributeNames: { "#seq": "seq", "#type": "type" },
      ExpressionAttributeValues: { ":count": count, ":type": "sequence" },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  const last = Number(out.Attributes?.seq);
  return { first: last - count + 1, last };
}

/**
 * Writes a site's settings if nobody changed them since `expectedUpdatedAt` (optimistic
 * concurrency: two editors never silently overwrite each other). Only the settings are set, so
 * counters kept on the site item (webhookCount) are never overwritten. "CONFLICT" when they
 * changed, undefined when the site is gone.
 */
export async function saveSiteSettings(
  site: Site,
  expectedUpdatedAt: string,
  entries: readonly AuditEntryInput[] = [],
): Promise<Site | Outcome<"CONFLICT"> | undefined> {
  const update = {
    TableName: tableName(),
    Key: keys.site(site.orgId, site.id),
    UpdateExpression: `SET #name = :name, #domain = :domain, isActive = :isActive, referencePrefix = :prefix, captcha = :captcha, updatedAt = :updatedAt${
      site.defaultRetention ? ", defaultRetention = :defaultRetention" : ""
    }`,
    ConditionExpression: "attribute_exists(pk) AND updatedAt = :expected",
    ExpressionAttributeNames: { "#name": "name", "#domain": "domain" },
    ExpressionAttributeValues: {
      ":name": site.name,
      ":domain": site.domain,
      ":isActive": site.isActive,
      ":prefix": site.referencePrefix,
      ":captcha": site.captcha,
      ":updatedAt": site.updatedAt,
      ":expected": expectedUpdatedAt,
      ...(site.defaultRetention ? { ":defaultRetention": site.defaultRetention } : {}),
    },
    ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
  };
  if (entries.length > 0) {
    // An audited change (a captcha secret, the default retention) and its entries: one
    // transaction (which returns no item: the site as written is the one given, its counters aside).
    const cancelled = await transact([["site", { Update: update }], ...auditEntriesNamed(entries, site.updatedAt)]);
    if (!cancelled) return site;
    if (!cancelled.refused("site")) throw cancelled.error;
    return cancelled.found("site") ? "CONFLICT" : undefined;
  }
  try {
    const out = await db().send(new UpdateCommand({ ...update, ReturnValues: "ALL_NEW" }));
    return out.Attributes ? toSite(out.Attributes) : undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return conditionFailedItem(error) ? "CONFLICT" : undefined;
  }
}

/** What keeps a site from being deleted. */
export interface SiteContents {
  webhooks: number;
  forms: number;
}

/**
 * Deletes a site that has no webhooks and no forms left (archived ones included; a form being
 * purged no longer counts): the contents otherwise, "NOT_FOUND" when absent. The counters on the site
 * item move in the same transactions as the webhooks and forms they count, so the delete's
 * condition holds against a form or webhook created at the same moment. Forms stored before
 * sites counted them are found through the site's form index first (one query).
 */
export async function deleteSite(
  orgId: string,
  siteId: string,
  audit?: AuditEntryInput,
): Promise<Outcome<"OK" | "NOT_FOUND"> | SiteContents> {
  const uncounted = await liveSiteForms(orgId, siteId);
  const contents = (item: Record<string, unknown>): SiteContents => {
    const { webhooks, forms } = counted(item);
    return { webhooks, forms: Math.max(forms, uncounted) };
  };
  if (uncounted > 0) {
    const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.site(orgId, siteId), ConsistentRead: true }));
    return out.Item ? contents(out.Item) : "NOT_FOUND";
  }
  // The site and its reference-number sequence go together: nothing of the site is left behind.
  const cancelled = await transact([
    [
      "site",
      {
        Delete: {
          TableName: tableName(),
          Key: keys.site(orgId, siteId),
          ConditionExpression:
            "attribute_exists(pk) AND (attribute_not_exists(webhookCount) OR webhookCount = :zero) AND (attribute_not_exists(#forms) OR #forms <= :zero)",
          ExpressionAttributeNames: { "#forms": SITE_FORM_COUNTER },
          ExpressionAttributeValues: { ":zero": 0 },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
    ["sequence", { Delete: { TableName: tableName(), Key: keys.siteSequence(siteId) } }],
    ...auditNamed(audit),
  ]);
  if (!cancelled) return "OK";
  const old = cancelled.found("site");
  return old ? contents(old) : "NOT_FOUND";
}

/**
 * How many of the site's forms are not being purged, by the site's form index (GSI1), counting
 * only (no item is returned). The index lags writes by a moment: a form created just now is
 * caught by the site's formCount instead.
 */
async function liveSiteForms(orgId: string, siteId: string): Promise<number> {
  let count = 0;
  await forEachPage(
    {
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :pk",
      FilterExpression: "orgId = :org AND deletedAt = :none",
      ExpressionAttributeValues: { ":pk": keys.formIndexPartition(siteId), ":org": orgId, ":none": null },
      Select: "COUNT",
    },
    (out) => {
      count += out.Count ?? 0;
    },
  );
  return count;
}

/** Every site of an organization, in id order (one Query of its partition; a page per 1 MB). */
export async function allSites(orgId: string): Promise<Site[]> {
  const items = await queryAll({
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.organization(orgId).pk, ":prefix": keys.sitePrefix() },
  });
  return items.map(toSite);
}
