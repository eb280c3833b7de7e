import type { Plan } from "../config";
import type { Permission, Role } from "./permissions";

/**
 * Who a request acts as: the types only, so every module that takes a principal depends on this
 * leaf and not on how a principal is resolved (./authenticate.ts).
 */
export interface SessionPrincipal {
  kind: "session";
  tokenHash: string;
  /** The member's session generation this session belongs to (lib/store/credentials.ts). */
  sessionEpoch: number;
  userId: string;
  orgId: string;
  email: string;
  /** Whether the member proved the address (docs/accounts.md). */
  emailVerified: boolean;
  /** Whether the address's owner took it back (a reclaim): the account holds no address until it changes it. */
  emailLost: boolean;
  name: string;
  role: Role;
  plan: Plan;
  organizationName: string;
  platformAdmin: boolean;
  permissions: ReadonlySet<Permission>;
}

export interface ApiKeyPrincipal {
  kind: "apiKey";
  keyId: string;
  /** The key's name when the request was made (a timeline entry records it). */
  name: string;
  orgId: string;
  plan: Plan;
  permissions: ReadonlySet<Permission>;
  /** Response headers every API-key response carries (X-RateLimit-*). */
  responseHeaders: Record<string, string>;
  /** Bookkeeping started during authentication (lastUsedAt), awaited before the response. */
  pending?: Promise<void>;
}

export type Principal = SessionPrincipal | ApiKeyPrincipal;
