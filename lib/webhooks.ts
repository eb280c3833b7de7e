import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { newToken, TOKEN_PREFIXES } from "./auth/tokens";
import { loadConfig } from "./config";
import { AppError, notFound } from "./errors";
import { newId, nowIso, sha256Hex } from "./ids";
import { findSite } from "./sites";
import type { AuditEntryInput } from "./store/audit-log";
import { getForm } from "./store/forms";
import { getSiteWebhookCounts, getWebhookCounts, type WebhookCounts, webhookCountsWithLegacy } from "./store/submission-counts";
import {
  deleteArchivedWebhook,
  getWebhook,
  insertWebhook,
  listSiteWebhooks,
  MAX_WEBHOOKS_PER_SITE,
  updateWebhook,
  type Webhook,
  type WebhookChanges,
  type WebhookCompatibility,
  type WebhookSource,
} from "./store/webhooks";

export const webhookUrl = (webhookId: string) => `${loadConfig().BASE_URL}/api/v1/incoming/${webhookId}`;

/** Shows that a secret exists and which one, never enough of it to use: prefix, dots, last four. */
export const maskedSecret = (webhook: Pick<Webhook, "secretLast4">) =>
  `${TOKEN_PREFIXES.webhookSecret}${"•".repeat(8)}${webhook.secretLast4}`;

function newSecret() {
  const secret = newToken("webhookSecret");
  return { secret, secretHash: sha256Hex(secret), secretLast4: secret.slice(-4) };
}

const listView = (w: Webhook) => ({
  id: w.id,
  name: w.name,
  source: w.source,
  isEnabled: w.isEnabled,
  formId: w.formId,
  compatibility: w.compatibility ?? null,
  submissionCount: w.submissionCount,
  lastReceivedAt: w.lastReceivedAt,
  archivedAt: w.archivedAt,
  webhookUrl: webhookUrl(w.id),
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
});

const detailView = (w: Webhook) => ({ ...listView(w), secretKey: maskedSecret(w) });

const updateView = (w: Webhook) => ({
  id: w.id,
  name: w.name,
  source: w.source,
  isEnabled: w.isEnabled,
  formId: w.formId,
  compatibility: w.compatibility ?? null,
  submissionCount: w.submissionCount,
  lastReceivedAt: w.lastReceivedAt,
  webhookUrl: webhookUrl(w.id),
  updatedAt: w.updatedAt,
});

/**
 * The webhook with the counts the API shows (kept by the bookkeeper from the table stream,
 * docs/data-model.md): eventually consistent, they settle within seconds of a submission.
 */
const withCounts = (w: Webhook, live: WebhookCounts | undefined): Webhook => ({
  ...w,
  ...webhookCountsWithLegacy(
    { submissionCount: w.submissionCount ?? 0, lastReceivedAt: w.lastReceivedAt ?? null },
    live ?? { submissionCount: 0, lastReceivedAt: null },
  ),
});

/** A form may be assigned only within the same site; anything else is simply not found. */
async function assertFormOfSite(formId: string, siteId: string): Promise<void> {
  const form = await getForm(formId);
  if (!form || form.siteId !== siteId || form.deletedAt) throw notFound("Form");
}

/** The webhook `webhookId` of site `siteId` in the caller's organization, or 404. */
async function findWebhook(principal: Principal, siteId: string, webhookId: string): Promise<Webhook> {
  const webhook = await getWebhook(webhookId);
  if (!webhook || webhook.orgId !== principal.orgId || webhook.siteId !== siteId) throw notFound("Webhook");
  return webhook;
}

/** The webhook `webhookId` of site `siteId` in the caller's organization, with its counts (read side by side), or 404. */
async function findWebhookWithCounts(principal: Principal, siteId: string, webhookId: string): Promise<Webhook> {
  const [webhook, counts] = await Promise.all([findWebhook(principal, siteId, webhookId), getWebhookCounts(siteId, webhookId)]);
  return withCounts(webhook, counts);
}

export async function listWebhooks(principal: Principal, siteId: string, archived: boolean) {
  // The site check, the query and the counts run side by side (one round trip, not three): when
  // the site is not the caller's, findSite throws 404 and the others' results are never looked at.
  const [, found, counts] = await Promise.all([
    findSite(principal.orgId, siteId),
    listSiteWebhooks(siteId),
    getSiteWebhookCounts(siteId),
  ]);
  const all = found.filter((w) => w.orgId === principal.orgId).map((w) => withCounts(w, counts.get(w.id)));
  const archivedCount = all.filter((w) => w.archivedAt !== null).length;
  const webhooks = all.filter((w) => (w.archivedAt !== null) === archived).map(listView);
  return { webhooks, archivedCount };
}

export async function createWebhook(
  principal: Principal,
  siteId: string,
  input: { name: string; source?: WebhookSource; formId?: string; compatibility?: WebhookCompatibility | null },
) {
  const site = await findSite(principal.orgId, siteId);
  if (input.formId) await assertFormOfSite(input.formId, site.id);
  const now = nowIso();
  const { secret, secretHash, secretLast4 } = newSecret();
  const webhook: Webhook = {
    id: newId("webhook"),
    orgId: principal.orgId,
    siteId: site.id,
    name: input.name,
    source: input.source ?? "generic",
    isEnabled: true,
    archivedAt: null,
    secretHash,
    secretLast4,
    formId: input.formId ?? null,
    compatibility: input.compatibility ?? null,
    submissionCount: 0,
    lastReceivedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await insertWebhook(webhook);
  if (outcome === "PARENT_NOT_FOUND") throw notFound("Site");
  if (outcome === "LIMIT_REACHED") {
    throw new AppError(
      "WEBHOOK_LIMIT_REACHED",
      `A site can have at most ${MAX_WEBHOOKS_PER_SITE} webhooks, archived ones included; permanently delete one first`,
    );
  }
  return {
    id: webhook.id,
    name: webhook.name,
    source: webhook.source,
    isEnabled: webhook.isEnabled,
    formId: webhook.formId,
    compatibility: webhook.compatibility ?? null,
    secretKey: secret,
    webhookUrl: webhookUrl(webhook.id),
    createdAt: webhook.createdAt,
  };
}

export async function readWebhook(principal: Principal, siteId: string, webhookId: string) {
  return detailView(await findWebhookWithCounts(principal, siteId, webhookId));
}

/** A timestamp strictly after `previous`, so every write changes `updatedAt` (the concurrency token). */
function nextTimestamp(previous: string): string {
  const now = nowIso();
  return now > previous ? now : new Date(Date.parse(previous) + 1).toISOString();
}

async function applyChanges(webhook: Webhook, changes: WebhookChanges, audit?: AuditEntryInput): Promise<Webhook> {
  const saved = await updateWebhook(webhook, changes, nextTimestamp(webhook.updatedAt), audit);
  if (saved === "CONFLICT") throw new AppError("CONFLICT", "The webhook changed while it was being updated; retry");
  if (!saved) throw notFound("Webhook");
  return saved;
}

export interface WebhookUpdate {
  name?: string;
  source?: WebhookSource;
  isEnabled?: boolean;
  restore?: boolean;
  formId?: string | null;
  /** The service whose control fields intake reads on this webhook; null clears it (docs/intake.md). */
  compatibility?: WebhookCompatibility | null;
}

/**
 * Spec 3.2's transitions. `restore: true` moves an archived webhook out of the archive, disabled
 * unless the same request says `isEnabled: true`; on a webhook that is not archived it is 409
 * WEBHOOK_NOT_ARCHIVED. `isEnabled: true` on an archived webhook without `restore` is 409
 * WEBHOOK_ARCHIVED (archived webhooks are disabled). `restore: false` changes nothing.
 */
export async function editWebhook(principal: Principal, siteId: string, webhookId: string, update: WebhookUpdate) {
  const webhook = await findWebhookWithCounts(principal, siteId, webhookId);
  const archived = webhook.archivedAt !== null;
  const changes: WebhookChanges = {};
  if (update.restore === true) {
    if (!archived) throw new AppError("WEBHOOK_NOT_ARCHIVED", "Only an archived webhook can be restored");
    changes.archivedAt = null;
    changes.isEnabled = update.isEnabled === true;
  } else if (update.isEnabled !== undefined) {
    if (archived && update.isEnabled) {
      throw new AppError("WEBHOOK_RESTORE_REQUIRED", "Restore the webhook (restore: true) before enabling it");
    }
    changes.isEnabled = update.isEnabled;
  }
  if (update.name !== undefined) changes.name = update.name;
  if (update.source !== undefined) changes.source = update.source;
  if (update.formId !== undefined) {
    if (update.formId !== null) await assertFormOfSite(update.formId, webhook.siteId);
    changes.formId = update.formId;
  }
  if (update.compatibility !== undefined) changes.compatibility = update.compatibility;
  const saved = await applyChanges(webhook, changes);
  return updateView({ ...saved, submissionCount: webhook.submissionCount, lastReceivedAt: webhook.lastReceivedAt });
}

/** Archives (idempotently): archivedAt set and disabled; restorable with `restore: true`. */
export async function archiveWebhook(principal: Principal, siteId: string, webhookId: string) {
  const webhook = await findWebhook(principal, siteId, webhookId);
  if (webhook.archivedAt !== null) return { message: "Webhook is already archived" };
  await applyChanges(webhook, { archivedAt: nowIso(), isEnabled: false });
  return { message: "Webhook archived; it answers 410 until restored or permanently deleted" };
}

/**
 * Permanently deletes an archived webhook. Its auto-created form (and that form's submissions)
 * goes too, through a background purge, unless another webhook also feeds that form; forms from
 * the builder are kept (the link lived on the webhook, so they are unlinked by its deletion).
 * Recorded in the audit log (`webhook.deleted`, naming the form purged with it) in the deletion's
 * own transaction.
 */
export async function deleteWebhookPermanently(principal: Principal, sourceIp: string, siteId: string, webhookId: string) {
  const webhook = await findWebhook(principal, siteId, webhookId);
  if (webhook.archivedAt === null) {
    throw new AppError("WEBHOOK_NOT_ARCHIVED", "Archive the webhook before deleting it permanently");
  }
  let purgeFormId: string | undefined;
  let counted = false;
  if (webhook.formId) {
    const form = await getForm(webhook.formId);
    if (form && !form.deletedAt && form.origin === "webhook" && form.createdByWebhookId === webhook.id) {
      const others = (await listSiteWebhooks(webhook.siteId)).filter((w) => w.id !== webhook.id && w.formId === form.id);
      if (others.length === 0) {
        purgeFormId = form.id;
        counted = form.countedOnSite === true;
      }
    }
  }
  const entry = audited(
    principal,
    sourceIp,
    "webhook.deleted",
    { type: "webhook", id: webhook.id, name: webhook.name },
    { siteId: webhook.siteId, formId: purgeFormId ?? null },
  );
  const outcome = await deleteArchivedWebhook(
    webhook,
    purgeFormId ? { formId: purgeFormId, counted } : undefined,
    nowIso(),
    entry,
  );
  if (outcome === "NOT_ARCHIVED") {
    throw new AppError("WEBHOOK_NOT_ARCHIVED", "Archive the webhook before deleting it permanently");
  }
  if (outcome === "NOT_FOUND") throw notFound("Webhook");
  return {
    message: purgeFormId
      ? "Webhook permanently deleted; its auto-created form and submissions are being deleted in the background"
      : "Webhook permanently deleted",
  };
}

export async function rotateWebhookSecret(principal: Principal, sourceIp: string, siteId: string, webhookId: string) {
  const webhook = await findWebhook(principal, siteId, webhookId);
  const { secret, secretHash, secretLast4 } = newSecret();
  const entry = audited(
    principal,
    sourceIp,
    "webhook.secret_rotated",
    { type: "webhook", id: webhook.id, name: webhook.name },
    {
      siteId: webhook.siteId,
    },
  );
  await applyChanges(webhook, { secretHash, secretLast4 }, entry);
  return { secretKey: secret };
}
