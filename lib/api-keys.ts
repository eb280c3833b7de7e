import { audited } from "./audit";
import { apiKeyIdFromHash } from "./auth/api-key-auth";
import { API_KEY_RATE_LIMITS, PERMISSIONS, type Permission, RESTRICTED_PERMISSIONS } from "./auth/permissions";
import type { SessionPrincipal } from "./auth/principal";
import { effectiveRateLimit } from "./auth/rate-limit";
import { newToken } from "./auth/tokens";
import { AppError, notFound } from "./errors";
import { isId, sha256Hex } from "./ids";
import {
  type ApiKey,
  deleteRevokedApiKey,
  getApiKey,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  updateApiKey,
} from "./store/api-keys";
import * as z from "./validation";

/** Keys per organization, revoked ones included until permanently deleted (spec part 8). */
export const MAX_API_KEYS = 25;
/** The longest expiry a key can be created with: ten years (docs/api.md, "API keys"). */
export const MAX_EXPIRES_IN_DAYS = 3650;
/** `keyPrefix`: `inlet_sk_` and the first 6 characters of the random part. */
export const KEY_PREFIX_LENGTH = 15;

/** Known permission names, each at most once (restricted ones are refused by the rules below). */
export const permissionList = /* @__PURE__ */ z.shared(() =>
  z.array(z.enum(PERMISSIONS)).check(
    z.minLength(1, "Give at least one permission, or omit the field for the default set"),
    z.refine((list) => new Set(list).size === list.length, "Each permission may be listed only once"),
  ),
);

/** The public shape of a key (list, get, update); the secret is never part of it. */
export function apiKeyView(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    keyPrefix: key.keyPrefix,
    permissions: key.permissions,
    rateLimitPerMin: effectiveRateLimit(key.plan, key.customRateLimit) ?? 0,
    lastUsedAt: key.lastUsedAt,
    expiresAt: key.expiresAt,
    isRevoked: key.revokedAt !== null,
    /** The creator left the organization: the key is refused (401 API_KEY_ORPHANED) and cannot be reassigned. */
    isOrphaned: key.creatorRole === null,
    createdBy: { name: key.createdBy.name, email: key.createdBy.email },
    createdAt: key.createdAt,
  };
}

/** Spec 5.2 rules 2 and 3: no API key may ever hold these. */
function refuseRestricted(permissions: readonly Permission[]): void {
  const restricted = permissions.filter((p) => RESTRICTED_PERMISSIONS.has(p));
  if (restricted.length === 0) return;
  throw new AppError(
    "RESTRICTED_PERMISSION",
    `API keys cannot hold ${restricted.join(", ")}: these actions need a dashboard session`,
    restricted.map((p) => ({ path: `permissions.${permissions.indexOf(p)}`, message: `${p} is restricted` })),
  );
}

/** Every non-restricted permission the user holds, in the order of spec part 5.2. */
const defaultPermissions = (principal: SessionPrincipal): Permission[] =>
  PERMISSIONS.filter((p) => principal.permissions.has(p) && !RESTRICTED_PERMISSIONS.has(p));

export async function createApiKey(
  principal: SessionPrincipal,
  input: { name: string; permissions?: Permission[]; expiresInDays?: number },
  sourceIp: string,
) {
  if (input.permissions) refuseRestricted(input.permissions);
  const secretKey = newToken("apiKey");
  const keyHash = sha256Hex(secretKey);
  const now = new Date();
  const key: ApiKey = {
    id: apiKeyIdFromHash(keyHash),
    orgId: principal.orgId,
    keyHash,
    plan: principal.plan,
    name: input.name,
    keyPrefix: secretKey.slice(0, KEY_PREFIX_LENGTH),
    permissions: input.permissions ?? defaultPermissions(principal),
    customRateLimit: null,
    expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000).toISOString() : null,
    revokedAt: null,
    createdBy: { userId: principal.userId, name: principal.name, email: principal.email },
    creatorRole: principal.role,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    lastUsedAt: null,
  };
  // The plan copied onto the key must still be the organization's when the key is stored.
  for (let attempt = 0; ; attempt++) {
    if (API_KEY_RATE_LIMITS[key.plan] === undefined) {
      throw new AppError("PLAN_REQUIRED", "API keys need the agency or enterprise plan");
    }
    const outcome = await insertApiKey(
      key,
      MAX_API_KEYS,
      audited(
        principal,
        sourceIp,
        "api_key.created",
        { type: "api_key", id: key.id, name: key.name },
        {
          permissions: key.permissions.join(" "),
          expiresAt: key.expiresAt,
        },
      ),
    );
    if (outcome === "OK") break;
    if (outcome === "LIMIT_REACHED") {
      throw new AppError(
        "API_KEY_LIMIT_REACHED",
        `An organization can hold ${MAX_API_KEYS} API keys; permanently delete a revoked one to free a slot`,
      );
    }
    // The creator's role changed between this request's authentication and the key's write.
    if (outcome === "CONFLICT") throw new AppError("CONFLICT", "Your role changed while the key was being created; retry");
    if (outcome === "PARENT_NOT_FOUND" || attempt >= 2) throw new AppError("CONFLICT", "The organization changed; retry");
    key.plan = outcome.planChanged;
  }
  return {
    key: {
      id: key.id,
      name: key.name,
      secretKey,
      keyPrefix: key.keyPrefix,
      permissions: key.permissions,
      rateLimitPerMin: effectiveRateLimit(key.plan, null) ?? 0,
      expiresAt: key.expiresAt,
      createdAt: key.createdAt,
    },
  };
}

/** The organization's key; another organization's key, or an id of the wrong form, is 404. */
async function findApiKey(orgId: string, keyId: string): Promise<ApiKey> {
  const key = isId("apiKey", keyId) ? await getApiKey(keyId) : undefined;
  if (!key || key.orgId !== orgId) throw notFound("API key");
  return key;
}

export async function listOrganizationApiKeys(orgId: string) {
  return { keys: (await listApiKeys(orgId)).map(apiKeyView) };
}

export async function getApiKeyDetails(orgId: string, keyId: string) {
  return { key: apiKeyView(await findApiKey(orgId, keyId)) };
}

export async function changeApiKey(
  principal: SessionPrincipal,
  keyId: string,
  input: { name?: string; permissions?: Permission[]; rateLimitPerMin?: number | null },
) {
  if (input.permissions) refuseRestricted(input.permissions);
  const planLimit = API_KEY_RATE_LIMITS[principal.plan] ?? 0;
  if (typeof input.rateLimitPerMin === "number" && input.rateLimitPerMin > planLimit) {
    throw new AppError("VALIDATION_ERROR", "The request is not valid", [
      { path: "rateLimitPerMin", message: `The ${principal.plan} plan allows at most ${planLimit} requests per minute` },
    ]);
  }
  if (!isId("apiKey", keyId)) throw notFound("API key");
  const updated = await updateApiKey(
    principal.orgId,
    keyId,
    {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.permissions !== undefined ? { permissions: input.permissions } : {}),
      ...(input.rateLimitPerMin !== undefined ? { customRateLimit: input.rateLimitPerMin } : {}),
    },
    new Date().toISOString(),
  );
  if (!updated) throw notFound("API key");
  return { key: apiKeyView(updated) };
}

/** Revokes the key (idempotent); with `permanent`, deletes an already revoked key and frees its slot. */
export async function deleteApiKey(principal: SessionPrincipal, sourceIp: string, keyId: string, permanent: boolean) {
  const orgId = principal.orgId;
  if (!isId("apiKey", keyId)) throw notFound("API key");
  const target = { type: "api_key", id: keyId };
  if (!permanent) {
    const entry = audited(principal, sourceIp, "api_key.revoked", target);
    const outcome = await revokeApiKey(orgId, keyId, new Date().toISOString(), entry);
    if (outcome === "NOT_FOUND") throw notFound("API key");
    return { message: "API key revoked" };
  }
  const outcome = await deleteRevokedApiKey(orgId, keyId, audited(principal, sourceIp, "api_key.deleted", target));
  if (outcome === "NOT_FOUND") throw notFound("API key");
  if (outcome === "NOT_REVOKED") {
    throw new AppError("API_KEY_NOT_REVOKED", "Revoke the API key before deleting it permanently");
  }
  return { message: "API key permanently deleted" };
}
