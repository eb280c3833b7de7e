import { type Account, api, setPlan, signupOwner } from "./api";

/** Shared by the API-key tests (test/local-stack/http/api-keys-*.test.ts). */

/** Every permission an API key gets when created without `permissions` (spec 5.2, minus the restricted ones). */
export const DEFAULT_PERMISSIONS = [
  "forms.view",
  "forms.create",
  "forms.edit",
  "forms.delete",
  "forms.publish",
  "submissions.view",
  "submissions.export",
  "submissions.delete",
  "sites.view",
  "sites.create",
  "sites.edit",
  "sites.delete",
  "team.view",
];
export const RESTRICTED = [
  "settings.email",
  "settings.billing",
  "settings.org",
  "team.invite",
  "team.manage",
  "audit_log.read",
  "submissions.import",
];
export const LIST_ITEM_FIELDS = [
  "createdAt",
  "createdBy",
  "expiresAt",
  "id",
  "isOrphaned",
  "isRevoked",
  "keyPrefix",
  "lastUsedAt",
  "name",
  "permissions",
  "rateLimitPerMin",
];
export const CREATE_FIELDS = ["createdAt", "expiresAt", "id", "keyPrefix", "name", "permissions", "rateLimitPerMin", "secretKey"];
export const SECRET = /^inlet_sk_[0-9A-Za-z]{38}$/;

export async function agencyOwner(label: string, plan: "agency" | "enterprise" = "agency"): Promise<Account> {
  const owner = await signupOwner(label);
  await setPlan(owner.orgId, plan);
  return owner;
}

export async function createKey(account: Account, body: Record<string, unknown> = { name: "CI" }) {
  const res = await api("POST", "/api/v1/api-keys", { token: account.token, body });
  if (res.status !== 200) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return res.body.data.key as { id: string; secretKey: string; keyPrefix: string; [field: string]: unknown };
}

/** Waits, if needed, so that the next few seconds of requests fall in one rate-limit window. */
export async function sameWindow(seconds = 5) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

export const code = (res: { body: { error?: { code?: string } } }) => res.body.error?.code;
