import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "./client";
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

const toSite = (item: Record<string, unknown>): Site => {
  const { pk: _pk, sk: _sk, type: _type, ...rest } = item;
  return rest as unknown as Site;
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
 * Replaces a site's settings if nobody changed it since `expectedUpdatedAt` (optimistic
 * concurrency: two editors never silently overwrite each other). "CONFLICT" when they did,
 * undefined when the site is gone.
 */
export async function replaceSite(site: Site, expectedUpdatedAt: string): Promise<Site | "CONFLICT" | undefined> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.site(site.orgId, site.id), type: "site", ...site },
        ConditionExpression: "attribute_exists(pk) AND updatedAt = :expected",
        ExpressionAttributeValues: { ":expected": expectedUpdatedAt },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return site;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (error as { Item?: unknown }).Item ? "CONFLICT" : undefined;
  }
}

export async function deleteSite(orgId: string, siteId: string): Promise<boolean> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.site(orgId, siteId),
        ConditionExpression: "attribute_exists(pk)",
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

