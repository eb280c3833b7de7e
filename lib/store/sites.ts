import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { fromItem } from "./items";
import { keys } from "./keys";
import { queryPage } from "./pagination";

export interface CaptchaSettings {
  provider: "score" | "challenge";
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
  createdAt: string;
  updatedAt: string;
}

/** Counters kept on the site item (webhookCount) are not part of the site's settings. */
const toSite = (item: Record<string, unknown>): Site => {
  return fromItem<Site>(item, "webhookCount");
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

export const listSites = (orgId: string, limit: number, cursor?: string) =>
  queryPage({
    partition: keys.organization(orgId).pk,
    prefix: keys.sitePrefix(),
    limit,
    ...(cursor ? { cursor } : {}),
    map: toSite,
  });

/**
 * Writes a site's settings if nobody changed them since `expectedUpdatedAt` (optimistic
 * concurrency: two editors never silently overwrite each other). Only the settings are set, so
 * counters kept on the site item (webhookCount) are never overwritten. "CONFLICT" when they
 * changed, undefined when the site is gone.
 */
export async function saveSiteSettings(site: Site, expectedUpdatedAt: string): Promise<Site | "CONFLICT" | undefined> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.site(site.orgId, site.id),
        UpdateExpression:
          "SET #name = :name, #domain = :domain, isActive = :isActive, referencePrefix = :prefix, captcha = :captcha, updatedAt = :updatedAt",
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
        },
        ReturnValues: "ALL_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return out.Attributes ? toSite(out.Attributes) : undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (error as { Item?: unknown }).Item ? "CONFLICT" : undefined;
  }
}

/** Deletes a site that has no webhooks left: "NOT_EMPTY" otherwise, "GONE" when absent. */
export async function deleteSite(orgId: string, siteId: string): Promise<"OK" | "NOT_EMPTY" | "GONE"> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.site(orgId, siteId),
        ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(webhookCount) OR webhookCount = :zero)",
        ExpressionAttributeValues: { ":zero": 0 },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return "OK";
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (error as { Item?: unknown }).Item ? "NOT_EMPTY" : "GONE";
  }
}
