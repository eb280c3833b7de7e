import { loadConfig } from "../config";
import { AppError, notFound } from "../errors";
import { safeEqual, sha256Hex } from "../ids";
import type { Form } from "../store/forms";
import { getSite, type Site } from "../store/sites";
import { getWebhook, type Webhook } from "../store/webhooks";
import { readLinkedForm } from "./auto-form";
import { InstanceMap } from "./instance-map";

/**
 * What intake reads about a webhook before it can store a submission: the webhook, its site and
 * the form it is linked to, kept by a warm function instance for INTAKE_CACHE_SECONDS after they
 * were read (docs/intake.md, "Configuration cache"). A request that finds them here skips the
 * webhook's strongly consistent read and the site's and form's reads: one round trip and two
 * read units fewer. The price, written down: a webhook disabled, archived or deleted, a secret
 * rotated or a site deactivated may still accept submissions for up to that long on an
 * instance that read them before. The cache never refuses: whatever the kept copy would refuse
 * (a wrong secret, a disabled webhook, an inactive site) is checked against a fresh read, so a
 * new secret or a re-enabled webhook works at once.
 */
export interface IntakeConfig {
  webhook: Webhook;
  site: Site | undefined;
  /** The linked form as read (eventually consistent), or as this instance created or grew it. */
  form: Form | undefined;
  /** When the webhook's read started (epoch ms): the copy is used until then + the TTL. */
  readAt: number;
}

/** Webhooks an instance keeps at most (each a few KB with its form). */
const MAX_WEBHOOKS = 1_000;
const kept = new InstanceMap<IntakeConfig>(MAX_WEBHOOKS);

const ttlMs = () => loadConfig().INTAKE_CACHE_SECONDS * 1000;

/** The kept configuration of a webhook, while it is fresh. */
export function keptConfig(webhookId: string): IntakeConfig | undefined {
  const config = kept.get(webhookId);
  if (!config) return undefined;
  if (Date.now() - config.readAt < ttlMs()) return config;
  kept.delete(webhookId);
  return undefined;
}

/**
 * Keeps what a request read (a no-op when the TTL is 0), fresh from the read, not from now.
 * Copies past their time are dropped from the least recently used end, so an instance holds
 * about the webhooks it served in the last INTAKE_CACHE_SECONDS, not up to MAX_WEBHOOKS forms.
 */
export function keepConfig(config: IntakeConfig): void {
  const ttl = ttlMs();
  if (ttl === 0) return;
  const now = Date.now();
  kept.dropOldestWhile((old) => now - old.readAt >= ttl);
  kept.set(config.webhook.id, config);
}

/**
 * Keeps the form this instance just created or grew, with the webhook's link to it, until the
 * copy's own time is up: the next request does not take it for a form that lacks these fields.
 */
export function keepForm(config: IntakeConfig, form: Form): IntakeConfig {
  const next = { ...config, webhook: { ...config.webhook, formId: form.id }, form };
  if (keptConfig(config.webhook.id)) kept.set(config.webhook.id, next);
  return next;
}

/** Forgets every kept configuration, as a new instance starts (the bench measures from there). */
export function forgetIntakeConfigs(): void {
  kept.clear();
}

/**
 * The checks, in this order (docs/intake.md, "Check order"): unknown webhook 404; the body (415,
 * 413, 400); the secret (401); archived 410, disabled 403, inactive site 403; then what the
 * request asks for (400 INVALID_REDIRECT, INVALID_IDEMPOTENCY_KEY). A sender learns what is
 * wrong with its payload without the secret, but nothing about the webhook's state.
 */
export function checkWebhookState(webhook: Webhook): void {
  if (webhook.archivedAt !== null) throw new AppError("WEBHOOK_ARCHIVED", "This webhook is archived");
  if (!webhook.isEnabled) throw new AppError("WEBHOOK_DISABLED", "This webhook is disabled");
}

export function checkSite(site: Site | undefined): asserts site is Site {
  if (!site) throw notFound("Webhook");
  if (!site.isActive) throw new AppError("SITE_INACTIVE", "This site is not accepting submissions");
}

const secretMatches = (webhook: Webhook, secret: string | undefined) =>
  // Hashes of equal length, compared in constant time.
  secret !== undefined && safeEqual(sha256Hex(secret), webhook.secretHash);

export function checkSecret(webhook: Webhook, secret: string | undefined): void {
  if (!secret) throw new AppError("WEBHOOK_KEY_REQUIRED", "Send the webhook's secret key in ?key= or X-Webhook-Key");
  if (!secretMatches(webhook, secret)) throw new AppError("WEBHOOK_KEY_INVALID", "The webhook's secret key is wrong");
}

/** Whether a kept configuration lets this request through every check it answers for. */
export const keptAccepts = (config: IntakeConfig, secret: string | undefined): boolean =>
  secretMatches(config.webhook, secret) &&
  config.webhook.archivedAt === null &&
  config.webhook.isEnabled &&
  config.site?.isActive === true;

/** The webhook as it is now (strongly consistent: a change applies to the very next read). */
export const readWebhook = (webhookId: string) => getWebhook(webhookId, { consistent: true });

/** The webhook's site and linked form, read side by side (the round trip of the spam evidence). */
export async function readSiteAndForm(webhook: Webhook): Promise<Pick<IntakeConfig, "site" | "form">> {
  const [site, form] = await Promise.all([getSite(webhook.orgId, webhook.siteId), readLinkedForm(webhook)]);
  return { site, form };
}
