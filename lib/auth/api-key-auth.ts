import { AppError } from "../errors";
import { safeEqual, sha256Hex } from "../ids";
import { describeError, log } from "../log";
import * as metrics from "../metrics/record";
import { type ApiKey, getApiKey, touchApiKey } from "../store/api-keys";
import { incrementCounter } from "../store/counters";
import { getMember } from "../store/members";
import { RESTRICTED_PERMISSIONS, type Role, rolePermissions } from "./permissions";
import type { ApiKeyPrincipal } from "./principal";
import { API_KEY_COUNTER_SCOPE, API_KEY_WINDOW_SECONDS, effectiveRateLimit, rateLimitHeaders, secondsUntil } from "./rate-limit";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ID_LENGTH = 22;

/**
 * A key's id is 22 base62 characters (~131 bits) of its secret's SHA-256. The item is stored
 * under the id, so a bearer secret and a management URL reach the same item with one strongly
 * consistent GetItem each, and no index (which would be eventually consistent) is involved.
 * The id reveals nothing usable: inverting SHA-256 of a 190-bit random secret is infeasible.
 */
export function apiKeyIdFromHash(secretHash: string): string {
  let value = BigInt(`0x${secretHash}`);
  let out = "";
  for (let i = 0; i < ID_LENGTH; i++) {
    out += ALPHABET[Number(value % 62n)];
    value /= 62n;
  }
  return `key_${out}`;
}

/**
 * A key stored before keys carried their creator's role: the creator's membership is read (one
 * extra round trip) on each use, until a role change or removal of the creator writes the role
 * onto the key (lib/accounts.ts). Authentication never writes it: every authenticated function
 * runs this code, and none may set a key's creatorRole (docs/deployment.md, "Least privilege").
 */
async function legacyCreatorRole(key: ApiKey): Promise<Role | null> {
  return (await getMember(key.orgId, key.createdBy.userId))?.role ?? null;
}

const unknownKey = () => new AppError("UNAUTHORIZED", "A valid bearer token is required");

/**
 * Authenticates an API key in one sequential round trip: the key read (strongly consistent,
 * so a revocation applies to the very next request on every instance) and the rate-limit
 * counter increment run in parallel. The first request of a key's window also records
 * lastUsedAt (so it is current to the minute with one write per key per minute); that write
 * never fails the request. `now` is injectable for tests of the window.
 */
export async function resolveApiKey(token: string, now = Date.now()): Promise<ApiKeyPrincipal> {
  const secretHash = sha256Hex(token);
  const keyId = apiKeyIdFromHash(secretHash);
  const [key, counter] = await Promise.all([
    getApiKey(keyId),
    incrementCounter(API_KEY_COUNTER_SCOPE, keyId, API_KEY_WINDOW_SECONDS, now),
  ]);
  if (!key || !safeEqual(key.keyHash, secretHash)) throw unknownKey();

  const limit = effectiveRateLimit(key.plan, key.customRateLimit);
  const headers = limit === undefined ? {} : rateLimitHeaders(limit, counter.count, counter.resetAt);
  if (key.revokedAt) throw new AppError("API_KEY_REVOKED", "This API key has been revoked", undefined, headers);
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) {
    throw new AppError("API_KEY_EXPIRED", "This API key has expired", undefined, headers);
  }
  const creatorRole = key.creatorRole === undefined ? await legacyCreatorRole(key) : key.creatorRole;
  if (creatorRole === null) {
    throw new AppError("API_KEY_ORPHANED", "This API key's creator has left the organization", undefined, headers);
  }
  if (limit === undefined) {
    throw new AppError("PLAN_REQUIRED", "API keys need the agency or enterprise plan", undefined, headers);
  }
  if (counter.count > limit) {
    metrics.apiKeyRateLimited();
    throw new AppError("RATE_LIMITED", `This API key is limited to ${limit} requests per minute`, undefined, {
      ...headers,
      "retry-after": String(secondsUntil(counter.resetAt, now)),
    });
  }
  // Off the critical path: the handler chain awaits it before the response leaves.
  const pending =
    counter.count === 1
      ? touchApiKey(key.id, new Date(now).toISOString()).catch((error: unknown) =>
          log.warn("could not record the API key's lastUsedAt", { keyId: key.id, ...describeError(error) }),
        )
      : undefined;
  return {
    ...(pending !== undefined ? { pending } : {}),
    kind: "apiKey",
    keyId: key.id,
    name: key.name,
    orgId: key.orgId,
    plan: key.plan,
    // What the key was given, and no more than its creator may do now (spec 5.2; docs/api.md).
    permissions: new Set(
      key.permissions.filter((p) => !RESTRICTED_PERMISSIONS.has(p) && rolePermissions(creatorRole).includes(p)),
    ),
    responseHeaders: headers,
  };
}
