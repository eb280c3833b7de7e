import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { AppError, notFound } from "./errors";
import { newId, nowIso } from "./ids";
import { defaultRetentionOf, mergedRetention, type Retention, sameRetention } from "./retention";
import {
  type CaptchaSettings,
  deleteSite,
  getSite,
  getSiteWithContents,
  listSites,
  putSite,
  type Site,
  saveSiteSettings,
} from "./store/sites";

export const DEFAULT_REFERENCE_PREFIX = "SUB";

/**
 * The default reference prefix: the first four letters or digits of the site name, upper-cased
 * ("Acme Corp" → "ACME"), or SUB when the name has fewer than two.
 */
export function defaultReferencePrefix(name: string): string {
  const letters = name
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, 4);
  return letters.length >= 2 ? letters : DEFAULT_REFERENCE_PREFIX;
}

/** The public shape of a site: the captcha secret is write-only, so only whether it is set. */
export function siteView(site: Site) {
  return {
    id: site.id,
    name: site.name,
    domain: site.domain,
    isActive: site.isActive,
    referencePrefix: site.referencePrefix,
    captcha: site.captcha
      ? {
          provider: site.captcha.provider,
          siteKey: site.captcha.siteKey,
          ...(site.captcha.provider === "score" ? { minScore: site.captcha.minScore ?? 0.5 } : {}),
          hasSecretKey: site.captcha.secretKey.length > 0,
        }
      : null,
    // Copied into each new form of the site (docs/privacy.md, "Retention").
    defaultRetention: defaultRetentionOf(site),
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
  };
}

export async function createSite(orgId: string, input: { name: string; domain?: string | null }) {
  const now = nowIso();
  const site: Site = {
    id: newId("site"),
    orgId,
    name: input.name,
    domain: input.domain ?? null,
    isActive: true,
    referencePrefix: defaultReferencePrefix(input.name),
    captcha: null,
    createdAt: now,
    updatedAt: now,
  };
  await putSite(site);
  return { site: siteView(site) };
}

export async function findSite(orgId: string, siteId: string): Promise<Site> {
  const site = await getSite(orgId, siteId);
  if (!site) throw notFound("Site");
  return site;
}

/**
 * One site with how many webhooks and forms it still has (archived ones included): what blocks
 * its deletion, so the dashboard can say so before anyone tries (docs/api.md, "Sites").
 */
export async function siteDetail(orgId: string, siteId: string) {
  const found = await getSiteWithContents(orgId, siteId);
  if (!found) throw notFound("Site");
  return { site: siteView(found.site), contents: found.contents };
}

export async function sitesOf(orgId: string, limit: number, cursor?: string) {
  const page = await listSites(orgId, limit, cursor);
  return { sites: page.items.map(siteView), nextCursor: page.nextCursor };
}

export interface SiteUpdate {
  name?: string;
  domain?: string | null;
  isActive?: boolean;
  referencePrefix?: string;
  captcha?: { provider: CaptchaSettings["provider"]; siteKey: string; secretKey?: string; minScore?: number } | null;
  /** Either value, or both; applies to forms created from now on, never to the site's existing forms. */
  defaultRetention?: Partial<Retention>;
}

export async function updateSite(principal: Principal, sourceIp: string, siteId: string, update: SiteUpdate) {
  const current = await findSite(principal.orgId, siteId);
  let captcha: CaptchaSettings | null = current.captcha;
  if (update.captcha === null) {
    captcha = null;
  } else if (update.captcha) {
    // Omitting secretKey keeps the stored one (it is never shown, so a client cannot echo it back).
    const secretKey = update.captcha.secretKey ?? current.captcha?.secretKey;
    if (!secretKey) {
      throw new AppError("VALIDATION_ERROR", "The request is not valid", [
        { path: "captcha.secretKey", message: "Required when no captcha secret is stored yet" },
      ]);
    }
    captcha = { provider: update.captcha.provider, siteKey: update.captcha.siteKey, secretKey };
    if (update.captcha.provider === "score") captcha.minScore = update.captcha.minScore ?? 0.5;
  }
  const next: Site = {
    ...current,
    ...(update.name !== undefined ? { name: update.name } : {}),
    ...(update.domain !== undefined ? { domain: update.domain } : {}),
    ...(update.isActive !== undefined ? { isActive: update.isActive } : {}),
    ...(update.referencePrefix !== undefined ? { referencePrefix: update.referencePrefix } : {}),
    captcha,
    ...(update.defaultRetention !== undefined
      ? { defaultRetention: mergedRetention(defaultRetentionOf(current), update.defaultRetention) }
      : {}),
    updatedAt: nowIso(),
  };
  if (next.updatedAt === current.updatedAt) next.updatedAt = new Date(Date.parse(next.updatedAt) + 1).toISOString();
  const entries = [
    captchaSecretEntry(principal, sourceIp, current, captcha),
    defaultRetentionEntry(principal, sourceIp, current, next),
  ].filter((entry) => entry !== undefined);
  const saved = await saveSiteSettings(next, current.updatedAt, entries);
  if (saved === "CONFLICT") throw new AppError("CONFLICT", "The site changed while it was being updated; retry");
  if (!saved) throw notFound("Site");
  return { site: siteView(saved) };
}

/**
 * The audit entry of a settings change that replaces, sets or removes the captcha secret; none
 * when the secret stays (the secret itself is never recorded: docs/privacy.md, "Audit log").
 */
function captchaSecretEntry(principal: Principal, sourceIp: string, current: Site, captcha: CaptchaSettings | null) {
  const before = current.captcha?.secretKey;
  const after = captcha?.secretKey;
  if (before === after) return undefined;
  const change = before === undefined ? "set" : after === undefined ? "removed" : "replaced";
  return audited(
    principal,
    sourceIp,
    "site.captcha_secret_changed",
    { type: "site", id: current.id, name: current.name },
    { change, provider: captcha?.provider ?? current.captcha?.provider ?? null },
  );
}

/**
 * The audit entry of a change of the site's default retention for its new forms (what new forms
 * will keep: docs/privacy.md, "Audit log"); none when the values stay.
 */
function defaultRetentionEntry(principal: Principal, sourceIp: string, current: Site, next: Site) {
  const before = defaultRetentionOf(current);
  const after = defaultRetentionOf(next);
  if (sameRetention(before, after)) return undefined;
  return audited(
    principal,
    sourceIp,
    "site.default_retention_changed",
    { type: "site", id: current.id, name: next.name },
    {
      inboxDaysBefore: before.inboxDays,
      spamDaysBefore: before.spamDays,
      inboxDays: after.inboxDays,
      spamDays: after.spamDays,
    },
  );
}

export async function removeSite(principal: Principal, sourceIp: string, siteId: string) {
  const orgId = principal.orgId;
  // Read first for the entry's name (the site is gone afterwards); a foreign or absent id is 404 here.
  const site = await findSite(orgId, siteId);
  const outcome = await deleteSite(
    orgId,
    siteId,
    audited(principal, sourceIp, "site.deleted", { type: "site", id: site.id, name: site.name }),
  );
  if (outcome === "NOT_FOUND") throw notFound("Site");
  if (outcome !== "OK") {
    // Names what is left, so nobody deletes a site and leaves its forms and submissions behind
    // where no list and no erasure reaches them (docs/api.md, "Sites").
    const left = [
      ...(outcome.webhooks > 0 ? [`${outcome.webhooks} webhook${outcome.webhooks === 1 ? "" : "s"}`] : []),
      ...(outcome.forms > 0 ? [`${outcome.forms} form${outcome.forms === 1 ? "" : "s"}`] : []),
    ];
    throw new AppError("SITE_NOT_EMPTY", `The site still has ${left.join(" and ")}: archive and permanently delete them first`, [
      ...(outcome.webhooks > 0 ? [{ path: "webhooks", message: `${outcome.webhooks} left` }] : []),
      ...(outcome.forms > 0 ? [{ path: "forms", message: `${outcome.forms} left` }] : []),
    ]);
  }
  return { message: "Site deleted" };
}
