import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { cancellationReasons, db, tableName } from "../aws/dynamodb";
import { updateIfUnchanged } from "./optimistic";
import { keys } from "./keys";
import { queryAll } from "./pagination";
import { purgeJobItem } from "./purge-jobs";
import { GSI1 } from "./table-definition";

export const WEBHOOK_SOURCES = ["generic", "partner_ads", "partner_automation"] as const;
export type WebhookSource = (typeof WEBHOOK_SOURCES)[number];

export interface Webhook {
  id: string;
  orgId: string;
  siteId: string;
  name: string;
  source: WebhookSource;
  isEnabled: boolean;
  archivedAt: string | null;
  /** SHA-256 of the secret; the secret itself is never stored. */
  secretHash: string;
  /** The secret's last four characters, for the masked placeholder. */
  secretLast4: string;
  formId: string | null;
  submissionCount: number;
  lastReceivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Webhooks per site, archived ones included (they can be restored). */
export const MAX_WEBHOOKS_PER_SITE = 50;

const toWebhook = (item: Record<string, unknown>): Webhook => {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _t, ...rest } = item;
  return rest as unknown as Webhook;
};

const webhookItem = (webhook: Webhook) => ({
  ...keys.webhook(webhook.id),
  ...keys.webhookIndex(webhook.siteId, webhook.createdAt, webhook.id),
  type: "webhook",
  ...webhook,
});

/**
 * Creates a webhook and counts it on the site in one transaction, so the per-site limit holds
 * under concurrent creates. "LIMIT" when the site is full, "SITE_GONE" when it was deleted.
 */
export async function insertWebhook(webhook: Webhook): Promise<"OK" | "LIMIT" | "SITE_GONE"> {
  const TableName = tableName();
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: keys.site(webhook.orgId, webhook.siteId),
              UpdateExpression: "ADD webhookCount :one",
              ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(webhookCount) OR webhookCount < :max)",
              ExpressionAttributeValues: { ":one": 1, ":max": MAX_WEBHOOKS_PER_SITE },
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            },
          },
          { Put: { TableName, Item: webhookItem(webhook), ConditionExpression: "attribute_not_exists(pk)" } },
        ],
      }),
    );
    return "OK";
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons?.[0] !== "ConditionalCheckFailed") throw error;
    const old = (error as { CancellationReasons?: { Item?: unknown }[] }).CancellationReasons?.[0]?.Item;
    return old ? "LIMIT" : "SITE_GONE";
  }
}

export async function getWebhook(webhookId: string): Promise<Webhook | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhook(webhookId) }));
  return out.Item ? toWebhook(out.Item) : undefined;
}

/** Every webhook of a site (at most MAX_WEBHOOKS_PER_SITE, so one query page), oldest first. */
export async function listSiteWebhooks(siteId: string): Promise<Webhook[]> {
  const items = await queryAll({
    IndexName: GSI1,
    KeyConditionExpression: "gsi1pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.webhookIndexPartition(siteId) },
  });
  return items.map(toWebhook);
}

export type WebhookChanges = Partial<
  Pick<Webhook, "name" | "source" | "isEnabled" | "archivedAt" | "secretHash" | "secretLast4" | "formId">
>;

/**
 * Applies `changes` if the webhook still has the `updatedAt` that the caller's decision was
 * based on (state transitions are checked against the state they start from). "CONFLICT" when
 * it changed meanwhile, undefined when it is gone.
 */
export async function updateWebhook(
  current: Webhook,
  changes: WebhookChanges,
  updatedAt: string,
): Promise<Webhook | "CONFLICT" | undefined> {
  return updateIfUnchanged({
    key: keys.webhook(current.id),
    changes,
    expectedUpdatedAt: current.updatedAt,
    updatedAt,
    map: toWebhook,
  });
}

/**
 * Permanently deletes an archived webhook, uncounts it on its site and, when `purgeFormId` is
 * given, hides that form and records a purge job for it, all in one transaction: either the
 * webhook is gone and the purge is scheduled, or nothing changed.
 */
export async function deleteArchivedWebhook(
  webhook: Webhook,
  purge: { formId: string; now: string } | undefined,
): Promise<"OK" | "NOT_ARCHIVED" | "GONE"> {
  const TableName = tableName();
  const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]> = [
    {
      Delete: {
        TableName,
        Key: keys.webhook(webhook.id),
        ConditionExpression: "attribute_exists(pk) AND attribute_type(archivedAt, :string)",
        ExpressionAttributeValues: { ":string": "S" },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      },
    },
    {
      Update: {
        TableName,
        Key: keys.site(webhook.orgId, webhook.siteId),
        UpdateExpression: "ADD webhookCount :minus",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":minus": -1 },
      },
    },
  ];
  if (purge) {
    items.push(
      {
        Update: {
          TableName,
          Key: keys.form(purge.formId),
          UpdateExpression: "SET deletedAt = :now",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":now": purge.now },
        },
      },
      {
        Put: {
          TableName,
          Item: purgeJobItem({
            formId: purge.formId,
            orgId: webhook.orgId,
            siteId: webhook.siteId,
            reason: `webhook ${webhook.id} permanently deleted`,
            now: purge.now,
          }),
        },
      },
    );
  }
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    return "OK";
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) throw error;
    if (reasons[0] === "ConditionalCheckFailed") {
      const old = (error as { CancellationReasons?: { Item?: unknown }[] }).CancellationReasons?.[0]?.Item;
      return old ? "NOT_ARCHIVED" : "GONE";
    }
    // The site or the form vanished meanwhile: nothing was changed; report the webhook as gone.
    return "GONE";
  }
}
