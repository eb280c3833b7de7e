import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditNamed } from "./audit-log";
import { countOn, insertCounted } from "./counted";
import { SITE_FORM_COUNTER } from "./forms";
import { fromItem } from "./items";
import { keys } from "./keys";
import { updateIfUnchanged } from "./optimistic";
import type { Outcome } from "./outcomes";
import { queryAll } from "./pagination";
import { purgeJobItem } from "./purge-jobs";
import { webhookCountsTombstone } from "./submission-counts";
import { GSI1 } from "./table-definition";
import { type Named, transact } from "./transactions";

export const WEBHOOK_SOURCES = ["generic", "partner_ads", "partner_automation"] as const;
export type WebhookSource = (typeof WEBHOOK_SOURCES)[number];

/** The form backends whose control fields a webhook can understand (docs/intake.md, "Other services' control fields"). */
export const COMPAT_SERVICES = ["formspree", "formsubmit", "basin", "getform", "web3forms", "netlify"] as const;
export type CompatService = (typeof COMPAT_SERVICES)[number];

/**
 * A webhook's compatibility setting: the service whose unprefixed control fields (`subject`,
 * `redirect`, `access_key`, `form-name`, ...) intake reads on it, and an extra honeypot field's
 * name (null: the service's default, `bot-field` for netlify, `botcheck` for web3forms).
 */
export interface WebhookCompatibility {
  service: CompatService;
  honeypotField: string | null;
}

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
  /** null (or absent, on webhooks written before it existed): every unprefixed name is data. */
  compatibility?: WebhookCompatibility | null;
  submissionCount: number;
  lastReceivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Webhooks per site, archived ones included (they can be restored). */
export const MAX_WEBHOOKS_PER_SITE = 50;

const toWebhook = (item: Record<string, unknown>): Webhook => {
  const webhook = fromItem<Webhook>(item);
  return { ...webhook, compatibility: webhook.compatibility ?? null };
};

const webhookItem = (webhook: Webhook) => ({
  ...keys.webhook(webhook.id),
  ...keys.webhookIndex(webhook.siteId, webhook.createdAt, webhook.id),
  type: "webhook",
  ...webhook,
});

/**
 * Creates a webhook and counts it on the site in one transaction, so the per-site limit holds
 * under concurrent creates.
 */
export async function insertWebhook(webhook: Webhook): Promise<Outcome<"OK" | "LIMIT_REACHED" | "PARENT_NOT_FOUND">> {
  const outcome = await insertCounted({
    item: webhookItem(webhook),
    parent: keys.site(webhook.orgId, webhook.siteId),
    counter: "webhookCount",
    max: MAX_WEBHOOKS_PER_SITE,
  });
  if (outcome.inserted) return "OK";
  return outcome.parent ? "LIMIT_REACHED" : "PARENT_NOT_FOUND";
}

/**
 * A webhook by id. `consistent` for the intake path, which must see the webhook as it is now
 * whenever it reads it (an eventually consistent read may return the item as it was up to about
 * a second earlier); a warm intake instance then keeps it for INTAKE_CACHE_SECONDS
 * (lib/intake/intake-config.ts).
 */
export async function getWebhook(webhookId: string, { consistent = false } = {}): Promise<Webhook | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.webhook(webhookId), ...(consistent ? { ConsistentRead: true } : {}) }),
  );
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
  Pick<Webhook, "name" | "source" | "isEnabled" | "archivedAt" | "secretHash" | "secretLast4" | "formId" | "compatibility">
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
  audit?: AuditEntryInput,
): Promise<Webhook | Outcome<"CONFLICT"> | undefined> {
  return updateIfUnchanged({
    key: keys.webhook(current.id),
    changes,
    expectedUpdatedAt: current.updatedAt,
    updatedAt,
    map: toWebhook,
    ...(audit ? { audit: { entry: audit, current: { ...current } } } : {}),
  });
}

/**
 * Permanently deletes an archived webhook, uncounts it on its site, leaves its counts a
 * tombstone (lib/store/submission-counts.ts) and, when `purgeFormId` is given, hides that form
 * and records a purge job for it, all in one transaction: either the webhook is gone and the
 * purge is scheduled (and the audit entry written), or nothing changed.
 */
export async function deleteArchivedWebhook(
  webhook: Webhook,
  /** The auto-created form purged with it; `counted` when the form is counted on the site (Form.countedOnSite). */
  purge: { formId: string; counted: boolean } | undefined,
  now: string,
  audit: AuditEntryInput,
): Promise<Outcome<"OK" | "NOT_ARCHIVED" | "NOT_FOUND">> {
  const TableName = tableName();
  const items: Named<"webhook" | "site" | "counts" | "form" | "job" | "audit">[] = [
    [
      "webhook",
      {
        Delete: {
          TableName,
          Key: keys.webhook(webhook.id),
          ConditionExpression: "attribute_exists(pk) AND attribute_type(archivedAt, :string)",
          ExpressionAttributeValues: { ":string": "S" },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
    // One update of the site item (a transaction touches an item once): its webhook count, and its
    // form count when the purged form is counted there.
    [
      "site",
      purge?.counted
        ? {
            Update: {
              TableName,
              Key: keys.site(webhook.orgId, webhook.siteId),
              UpdateExpression: "ADD webhookCount :minus, #forms :minus",
              ConditionExpression: "attribute_exists(pk)",
              ExpressionAttributeNames: { "#forms": SITE_FORM_COUNTER },
              ExpressionAttributeValues: { ":minus": -1 },
            },
          }
        : countOn(keys.site(webhook.orgId, webhook.siteId), "webhookCount", -1),
    ],
    ["counts", { Put: webhookCountsTombstone(webhook.siteId, webhook.id, now) }],
    ...auditNamed(audit),
  ];
  if (purge) {
    items.push(
      [
        "form",
        {
          Update: {
            TableName,
            Key: keys.form(purge.formId),
            UpdateExpression: "SET deletedAt = :now",
            ConditionExpression: "attribute_exists(pk)",
            ExpressionAttributeValues: { ":now": now },
          },
        },
      ],
      [
        "job",
        {
          Put: {
            TableName,
            Item: purgeJobItem({
              formId: purge.formId,
              orgId: webhook.orgId,
              siteId: webhook.siteId,
              reason: `webhook ${webhook.id} permanently deleted`,
              now,
            }),
          },
        },
      ],
    );
  }
  const cancelled = await transact(items);
  if (!cancelled) return "OK";
  if (cancelled.refused("webhook")) return cancelled.found("webhook") ? "NOT_ARCHIVED" : "NOT_FOUND";
  // The site or the form vanished meanwhile: nothing was changed; report the webhook as gone.
  return "NOT_FOUND";
}
