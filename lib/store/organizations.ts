import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import type { Plan } from "../config";
import { batchGet } from "./batch";
import { fromItem } from "./items";
import { keys } from "./keys";
import { queryPage } from "./pagination";
import { GSI1 } from "./table-definition";

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  createdAt: string;
  updatedAt: string;
  /** API keys held, revoked ones included (lib/store/api-keys.ts keeps it; absent until the first). */
  apiKeyCount?: number;
}

export const organizationItem = (org: Organization) => ({
  ...keys.organization(org.id),
  ...keys.organizationIndex(org.createdAt, org.id),
  type: "organization",
  ...org,
});

export const toOrganization = (item: Record<string, unknown>) => fromItem<Organization>(item);

/** An organization by id (BatchGetItem, as the reads it is often asked beside). */
export async function getOrganization(orgId: string): Promise<Organization | undefined> {
  const [item] = await batchGet([keys.organization(orgId)]);
  return item ? toOrganization(item) : undefined;
}

/** Every organization, newest first, a page at a time (GSI1 `ORGS`: the platform admin's list). */
export const listOrganizations = (limit: number, cursor?: string) =>
  queryPage({
    partition: keys.organizationIndexPartition(),
    index: GSI1,
    limit,
    newestFirst: true,
    ...(cursor ? { cursor } : {}),
    map: toOrganization,
  });

/**
 * Sets the organization's name or plan (a platform admin's change, or a rename); undefined when
 * it does not exist (any more). Sessions read the organization on every request, so the change
 * shows at once.
 */
export async function updateOrganization(
  orgId: string,
  changes: { name: string } | { plan: Plan },
  now: string,
): Promise<Organization | undefined> {
  const [field, value] = Object.entries(changes)[0] as [string, unknown];
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.organization(orgId),
        UpdateExpression: "SET #field = :value, updatedAt = :now",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#field": field },
        ExpressionAttributeValues: { ":value": value, ":now": now },
        ReturnValues: "ALL_NEW",
      }),
    );
    return out.Attributes ? toOrganization(out.Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
