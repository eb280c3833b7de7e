import type { Plan } from "../lib/config";
import type { Permission, Role } from "../lib/auth/permissions";

/**
 * The one route table. `infra/http-api.ts` creates one function and one HTTP API route per
 * entry, `infra/local/gateway.ts` serves exactly these entries, and a test asserts that every
 * handler file under functions/ is listed here.
 */
export interface RouteDef {
  /** API Gateway's own route key format. */
  route: string;
  /** Handler module under functions/, without extension; it exports `handler`. */
  handler: string;
  /**
   * `public`: no credentials. `session`: a dashboard session token only (an API key gets 403
   * SESSION_REQUIRED). `bearer`: a session or an API key.
   */
  auth: "public" | "session" | "bearer";
  permission?: Permission;
  /** Session roles allowed (403 ROLE_REQUIRED otherwise). */
  roles?: readonly Role[];
  /** Organization plans allowed (403 PLAN_REQUIRED otherwise). */
  plans?: readonly Plan[];
  /** Only platform admins (403 PLATFORM_ADMIN_REQUIRED otherwise). */
  platformAdmin?: boolean;
  /** What the function may do to the table: read-only by default. */
  table: "none" | "read" | "write";
  /** Whether the function may send to the intake queue. */
  queue?: "send";
  /**
   * The export bucket (infra/exports.ts): `write` → may put objects under `exports/` and sign
   * download links for them (s3:PutObject and s3:GetObject there, nothing else), and knows
   * EXPORT_BUCKET.
   */
  bucket?: "write";
  /**
   * `send` → may send notification emails through SES from the configured identity
   * (infra/notifications.ts); only the queue consumer does.
   */
  email?: "send";
  memoryMb?: number;
  timeoutSeconds?: number;
}

const OWNER_OR_ADMIN = ["owner", "admin"] as const;
/** Plans with API keys (spec 5.2 rule 4: key management needs one, and an owner or admin session). */
const AGENCY_OR_ENTERPRISE = ["agency", "enterprise"] as const;

export const ROUTES = [
  { route: "POST /api/v1/auth/signup", handler: "auth/signup", auth: "public", table: "write" },
  { route: "POST /api/v1/auth/login", handler: "auth/login", auth: "public", table: "write" },
  { route: "POST /api/v1/auth/logout", handler: "auth/logout", auth: "session", table: "write" },
  { route: "GET /api/v1/auth/me", handler: "auth/me", auth: "session", table: "read" },

  { route: "GET /api/v1/team", handler: "team/list-members", auth: "bearer", permission: "team.view", table: "read" },
  {
    route: "POST /api/v1/team/invites",
    handler: "team/create-invite",
    auth: "session",
    permission: "team.invite",
    roles: OWNER_OR_ADMIN,
    table: "write",
  },
  {
    route: "PUT /api/v1/team/members/{userId}",
    handler: "team/update-member",
    auth: "session",
    permission: "team.manage",
    roles: OWNER_OR_ADMIN,
    table: "write",
  },
  {
    route: "DELETE /api/v1/team/members/{userId}",
    handler: "team/remove-member",
    auth: "session",
    permission: "team.manage",
    roles: OWNER_OR_ADMIN,
    table: "write",
  },

  {
    route: "GET /api/v1/admin/organizations",
    handler: "admin/list-organizations",
    auth: "session",
    platformAdmin: true,
    table: "read",
  },
  {
    route: "PUT /api/v1/admin/organizations/{orgId}",
    handler: "admin/update-organization",
    auth: "session",
    platformAdmin: true,
    table: "write",
  },

  { route: "POST /api/v1/sites", handler: "sites/create-site", auth: "bearer", permission: "sites.create", table: "write" },
  { route: "GET /api/v1/sites", handler: "sites/list-sites", auth: "bearer", permission: "sites.view", table: "read" },
  { route: "GET /api/v1/sites/{id}", handler: "sites/get-site", auth: "bearer", permission: "sites.view", table: "read" },
  { route: "PUT /api/v1/sites/{id}", handler: "sites/update-site", auth: "bearer", permission: "sites.edit", table: "write" },
  {
    route: "DELETE /api/v1/sites/{id}",
    handler: "sites/delete-site",
    auth: "bearer",
    permission: "sites.delete",
    table: "write",
  },

  { route: "GET /api/v1/sites/{id}/webhooks", handler: "webhooks/list-webhooks", auth: "bearer", permission: "sites.view", table: "read" },
  { route: "POST /api/v1/sites/{id}/webhooks", handler: "webhooks/create-webhook", auth: "bearer", permission: "sites.edit", table: "write" },
  {
    route: "GET /api/v1/sites/{id}/webhooks/{webhookId}",
    handler: "webhooks/get-webhook",
    auth: "bearer",
    permission: "sites.view",
    table: "read",
  },
  {
    route: "PUT /api/v1/sites/{id}/webhooks/{webhookId}",
    handler: "webhooks/update-webhook",
    auth: "bearer",
    permission: "sites.edit",
    table: "write",
  },
  {
    route: "DELETE /api/v1/sites/{id}/webhooks/{webhookId}",
    handler: "webhooks/delete-webhook",
    auth: "bearer",
    permission: "sites.delete",
    table: "write",
  },
  {
    route: "POST /api/v1/sites/{id}/webhooks/{webhookId}/rotate-secret",
    handler: "webhooks/rotate-webhook-secret",
    auth: "bearer",
    permission: "sites.edit",
    table: "write",
  },

  /** Forms and submissions (docs/api.md, "Forms and submissions"). */
  { route: "GET /api/v1/sites/{id}/forms", handler: "forms/list-forms", auth: "bearer", permission: "forms.view", table: "read" },
  { route: "POST /api/v1/sites/{id}/forms", handler: "forms/create-form", auth: "bearer", permission: "forms.create", table: "write" },
  { route: "GET /api/v1/forms/{formId}", handler: "forms/get-form", auth: "bearer", permission: "forms.view", table: "read" },
  { route: "PUT /api/v1/forms/{formId}", handler: "forms/update-form", auth: "bearer", permission: "forms.edit", table: "write" },
  { route: "DELETE /api/v1/forms/{formId}", handler: "forms/delete-form", auth: "bearer", permission: "forms.delete", table: "write" },
  {
    route: "POST /api/v1/forms/{formId}/duplicate",
    handler: "forms/duplicate-form",
    auth: "bearer",
    permission: "forms.create",
    table: "write",
  },
  {
    route: "POST /api/v1/forms/{formId}/publish",
    handler: "forms/publish-form",
    auth: "bearer",
    permission: "forms.publish",
    table: "write",
  },
  {
    route: "POST /api/v1/forms/{formId}/unpublish",
    handler: "forms/unpublish-form",
    auth: "bearer",
    permission: "forms.publish",
    table: "write",
  },
  {
    route: "GET /api/v1/forms/{formId}/submissions",
    handler: "submissions/list-submissions",
    auth: "bearer",
    permission: "submissions.view",
    table: "read",
  },
  {
    // Reads a whole form (up to API Gateway's 30 s); large files go to S3 (lib/export.ts).
    route: "GET /api/v1/forms/{formId}/submissions/export",
    handler: "submissions/export-submissions",
    auth: "bearer",
    permission: "submissions.export",
    table: "read",
    bucket: "write",
    memoryMb: 1024,
    timeoutSeconds: 29,
  },
  {
    route: "GET /api/v1/submissions/{submissionId}",
    handler: "submissions/get-submission",
    auth: "bearer",
    permission: "submissions.view",
    table: "read",
  },
  {
    // Flag/unflag is moderation of collected data and can fire outbound webhooks: it needs the
    // permission that may remove the submission outright (docs/api.md, "Spam moderation").
    route: "PUT /api/v1/submissions/{submissionId}",
    handler: "submissions/update-submission",
    auth: "bearer",
    permission: "submissions.delete",
    table: "write",
  },
  {
    route: "DELETE /api/v1/submissions/{submissionId}",
    handler: "submissions/delete-submission",
    auth: "bearer",
    permission: "submissions.delete",
    table: "write",
  },
  {
    route: "POST /api/v1/submissions/bulk-delete",
    handler: "submissions/bulk-delete-submissions",
    auth: "bearer",
    permission: "submissions.delete",
    table: "write",
  },
  {
    route: "POST /api/v1/sites/{id}/submissions/erase",
    handler: "submissions/erase-submissions",
    auth: "bearer",
    permission: "submissions.delete",
    table: "write",
    timeoutSeconds: 29,
  },

  /** Outbound webhooks of a form (docs/api.md, "Outbound webhooks"; docs/outbound-webhooks.md). */
  {
    route: "POST /api/v1/forms/{formId}/outbound-webhooks",
    handler: "outbound-webhooks/create-outbound-webhook",
    auth: "bearer",
    permission: "forms.edit",
    table: "write",
  },
  {
    route: "GET /api/v1/forms/{formId}/outbound-webhooks",
    handler: "outbound-webhooks/list-outbound-webhooks",
    auth: "bearer",
    permission: "forms.view",
    table: "read",
  },
  {
    route: "PUT /api/v1/forms/{formId}/outbound-webhooks/{endpointId}",
    handler: "outbound-webhooks/update-outbound-webhook",
    auth: "bearer",
    permission: "forms.edit",
    table: "write",
  },
  {
    route: "DELETE /api/v1/forms/{formId}/outbound-webhooks/{endpointId}",
    handler: "outbound-webhooks/delete-outbound-webhook",
    auth: "bearer",
    permission: "forms.edit",
    table: "write",
  },
  {
    route: "GET /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries",
    handler: "outbound-webhooks/list-outbound-deliveries",
    auth: "bearer",
    permission: "forms.view",
    table: "read",
  },
  {
    // Queues the attempt itself (a user action, not a stored record: a direct send is fine).
    route: "POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries/{deliveryId}/retry",
    handler: "outbound-webhooks/retry-outbound-delivery",
    auth: "bearer",
    permission: "forms.edit",
    table: "write",
    queue: "send",
  },

  /** The public intake endpoint: no bearer token; the webhook's secret authenticates (spec 5.3). */
  { route: "POST /api/v1/incoming/{webhookId}", handler: "intake/receive-submission", auth: "public", table: "write" },
  { route: "GET /api/v1/incoming/{webhookId}", handler: "intake/ping-webhook", auth: "public", table: "read" },
  { route: "OPTIONS /api/v1/incoming/{webhookId}", handler: "intake/preflight", auth: "public", table: "none" },

  {
    route: "GET /api/v1/api-keys",
    handler: "api-keys/list-api-keys",
    auth: "session",
    roles: OWNER_OR_ADMIN,
    plans: AGENCY_OR_ENTERPRISE,
    table: "read",
  },
  {
    route: "POST /api/v1/api-keys",
    handler: "api-keys/create-api-key",
    auth: "session",
    roles: OWNER_OR_ADMIN,
    plans: AGENCY_OR_ENTERPRISE,
    table: "write",
  },
  {
    route: "GET /api/v1/api-keys/{id}",
    handler: "api-keys/get-api-key",
    auth: "session",
    roles: OWNER_OR_ADMIN,
    plans: AGENCY_OR_ENTERPRISE,
    table: "read",
  },
  {
    route: "PUT /api/v1/api-keys/{id}",
    handler: "api-keys/update-api-key",
    auth: "session",
    roles: OWNER_OR_ADMIN,
    plans: AGENCY_OR_ENTERPRISE,
    table: "write",
  },
  {
    route: "DELETE /api/v1/api-keys/{id}",
    handler: "api-keys/delete-api-key",
    auth: "session",
    roles: OWNER_OR_ADMIN,
    plans: AGENCY_OR_ENTERPRISE,
    table: "write",
  },

  /** Everything no other route matches: the JSON 404 envelope, in AWS too. */
  { route: "$default", handler: "not-found", auth: "public", table: "none" },
] as const satisfies readonly RouteDef[];

export type RouteKey = (typeof ROUTES)[number]["route"];

export function routeDef(key: RouteKey): RouteDef {
  const def = ROUTES.find((r) => r.route === key);
  if (!def) throw new Error(`No route ${key}`);
  return def;
}

/**
 * The intake queue's consumer: not an HTTP route, but declared here too so the CDK stack
 * (infra/intake-pipeline.ts), the local queue poller (infra/local/stack.ts) and the test that
 * every handler file is declared read the same entry. The queue's visibility timeout is derived
 * from `timeoutSeconds` (at least 6x); `batchSize` is both the event source's and the poller's.
 */
export const QUEUE_CONSUMER = {
  handler: "consumer/process-queue",
  table: "write",
  timeoutSeconds: 30,
  memoryMb: 256,
  batchSize: 10,
  // Outbound webhook attempts queue their retries (lib/outbound/messages.ts).
  queue: "send",
  // Notification emails (lib/notifications/).
  email: "send",
} as const satisfies Pick<RouteDef, "handler" | "table" | "queue" | "email" | "timeoutSeconds" | "memoryMb"> & { batchSize: number };
