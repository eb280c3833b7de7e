import type { RouteRequirements } from "../lib/auth/authorize";
import { DIGEST_RUN_TIMEOUT_SECONDS } from "../lib/digests/timeout";
import { CONSUMER_TIMEOUT_SECONDS } from "../lib/pipeline/consumer";

/**
 * The one route table. `infra/http-api.ts` creates one function and one HTTP API route per
 * entry, `infra/local/gateway.ts` serves exactly these entries, a test asserts that every
 * handler file under functions/ is listed here, and each handler hands its own entry to
 * `httpHandler`/`publicHandler` (`route(key)`), from which its principal and path parameters
 * are typed. lib/ never imports this file: it declares the narrow `RouteRequirements` it enforces.
 */
export interface RouteDef extends RouteRequirements {
  /** API Gateway's own route key format. */
  route: string;
  /** Handler module under functions/, without extension; it exports `handler`. */
  handler: string;
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
   * An import's rows in the export bucket (infra/exports.ts, `imports/`): `write` → the import
   * route may put them (s3:PutObject there), `read` → the consumer may read them (s3:GetObject).
   */
  imports?: "write" | "read";
  /**
   * `send` → may send emails through SES from the configured identity (infra/notifications.ts):
   * the queue consumer's notifications, and the account's own verification and reclaim links.
   * `unsuppress` → may take an address off SES's account-level suppression list (a person lifting
   * a form's suppressed address: docs/email.md).
   */
  email?: "send" | "unsuppress";
  memoryMb?: number;
  timeoutSeconds?: number;
}

// The requirement sets entries share (spread into an entry; the entry's own fields follow).
const PUBLIC = { auth: "public" } as const;
const SESSION = { auth: "session" } as const;
const BEARER = { auth: "bearer" } as const;
/** Team management: an owner or admin session (spec 5.2). */
const TEAM_ADMIN = { auth: "session", roles: ["owner", "admin"] } as const;
/** Key management (spec 5.2 rule 4): an owner or admin session of an agency or enterprise organization. */
const KEY_ADMIN = { auth: "session", roles: ["owner", "admin"], plans: ["agency", "enterprise"] } as const;
const PLATFORM_ADMIN = { auth: "session", platformAdmin: true } as const;
const READ = { table: "read" } as const;
const WRITE = { table: "write" } as const;

// biome-ignore format: one route per line reads as a table
export const ROUTES = [
  // Signup and the address's links send their email through SES themselves (docs/accounts.md).
  { route: "POST /api/v1/auth/signup", handler: "auth/signup", ...PUBLIC, ...WRITE, email: "send" },
  { route: "POST /api/v1/auth/login", handler: "auth/login", ...PUBLIC, ...WRITE },
  { route: "POST /api/v1/auth/logout", handler: "auth/logout", ...SESSION, ...WRITE },
  { route: "GET /api/v1/auth/me", handler: "auth/me", ...SESSION, ...READ },
  // Confirming a link needs the session of the account it was issued for; it tells the old address of a change.
  { route: "POST /api/v1/auth/verify-email", handler: "auth/verify-email", ...SESSION, ...WRITE, email: "send" },
  { route: "POST /api/v1/auth/verify-email/resend", handler: "auth/resend-verification", ...SESSION, ...WRITE, email: "send" },
  // A forgotten password, a change while signed in, the other sessions, the display name (docs/accounts.md).
  { route: "POST /api/v1/auth/password-reset", handler: "auth/request-password-reset", ...PUBLIC, ...WRITE, email: "send" },
  { route: "POST /api/v1/auth/password-reset/confirm", handler: "auth/reset-password", ...PUBLIC, ...WRITE },
  { route: "PUT /api/v1/auth/password", handler: "auth/change-password", ...SESSION, ...WRITE, email: "send" },
  { route: "POST /api/v1/auth/logout/others", handler: "auth/end-other-sessions", ...SESSION, ...WRITE },
  { route: "PUT /api/v1/auth/me", handler: "auth/update-me", ...SESSION, ...WRITE },
  // The person's own email notifications: time zone, digests, choices per form (docs/notifications.md,
  // "Digests"). Under /auth/me with the person's other settings; their handlers in account/ (a
  // nested stack of their own: the auth family's template is near its bar).
  { route: "GET /api/v1/auth/me/notifications", handler: "account/get-notifications", ...SESSION, ...READ },
  { route: "PUT /api/v1/auth/me/notifications", handler: "account/update-notifications", ...SESSION, ...WRITE },
  // Every reclaim request is queued alike; the consumer decides and sends (lib/reclaim-request.ts).
  { route: "POST /api/v1/auth/reclaim-email", handler: "auth/reclaim-email", ...PUBLIC, ...WRITE, queue: "send" },
  { route: "POST /api/v1/auth/email-links/describe", handler: "auth/describe-email-link", ...PUBLIC, ...READ },
  { route: "POST /api/v1/auth/change-email", handler: "auth/change-email", ...SESSION, ...WRITE, email: "send" },

  { route: "GET /api/v1/team", handler: "team/list-members", ...BEARER, permission: "team.view", ...READ },
  { route: "POST /api/v1/team/invites", handler: "team/create-invite", ...TEAM_ADMIN, permission: "team.invite", ...WRITE },
  { route: "PUT /api/v1/team/members/{userId}", handler: "team/update-member", ...TEAM_ADMIN, permission: "team.manage", ...WRITE },
  { route: "DELETE /api/v1/team/members/{userId}", handler: "team/remove-member", ...TEAM_ADMIN, permission: "team.manage", ...WRITE },

  // The caller's own organization (its name); settings routes take a session only (spec 5.2).
  { route: "PUT /api/v1/organization", handler: "organization/rename-organization", ...TEAM_ADMIN, permission: "settings.org", ...WRITE },
  // A person's data across the organization (docs/privacy.md, "Erasure and access requests"): an
  // owner's or admin's session, or an API key with the permission; each call records an audit entry.
  { route: "POST /api/v1/organization/access-requests", handler: "organization/request-access", ...BEARER, roles: ["owner", "admin"], permission: "submissions.export", ...WRITE, timeoutSeconds: 29 },
  { route: "POST /api/v1/organization/erasures", handler: "organization/erase-everywhere", ...BEARER, roles: ["owner", "admin"], permission: "submissions.delete", ...WRITE, timeoutSeconds: 29 },

  { route: "GET /api/v1/admin/organizations", handler: "admin/list-organizations", ...PLATFORM_ADMIN, ...READ },
  { route: "PUT /api/v1/admin/organizations/{orgId}", handler: "admin/update-organization", ...PLATFORM_ADMIN, ...WRITE },

  { route: "POST /api/v1/sites", handler: "sites/create-site", ...BEARER, permission: "sites.create", ...WRITE },
  { route: "GET /api/v1/sites", handler: "sites/list-sites", ...BEARER, permission: "sites.view", ...READ },
  { route: "GET /api/v1/sites/{id}", handler: "sites/get-site", ...BEARER, permission: "sites.view", ...READ },
  { route: "PUT /api/v1/sites/{id}", handler: "sites/update-site", ...BEARER, permission: "sites.edit", ...WRITE },
  { route: "DELETE /api/v1/sites/{id}", handler: "sites/delete-site", ...BEARER, permission: "sites.delete", ...WRITE },
  // overview: a site's daily counts, busiest sources and forms, failing outbound endpoints
  { route: "GET /api/v1/sites/{id}/overview", handler: "sites/get-site-overview", ...BEARER, permission: "submissions.view", ...READ },

  { route: "GET /api/v1/sites/{id}/webhooks", handler: "webhooks/list-webhooks", ...BEARER, permission: "sites.view", ...READ },
  { route: "POST /api/v1/sites/{id}/webhooks", handler: "webhooks/create-webhook", ...BEARER, permission: "sites.edit", ...WRITE },
  { route: "GET /api/v1/sites/{id}/webhooks/{webhookId}", handler: "webhooks/get-webhook", ...BEARER, permission: "sites.view", ...READ },
  { route: "PUT /api/v1/sites/{id}/webhooks/{webhookId}", handler: "webhooks/update-webhook", ...BEARER, permission: "sites.edit", ...WRITE },
  { route: "DELETE /api/v1/sites/{id}/webhooks/{webhookId}", handler: "webhooks/delete-webhook", ...BEARER, permission: "sites.delete", ...WRITE },
  { route: "POST /api/v1/sites/{id}/webhooks/{webhookId}/rotate-secret", handler: "webhooks/rotate-webhook-secret", ...BEARER, permission: "sites.edit", ...WRITE },

  // Forms and submissions (docs/api.md, "Forms and submissions").
  { route: "GET /api/v1/sites/{id}/forms", handler: "forms/list-forms", ...BEARER, permission: "forms.view", ...READ },
  { route: "POST /api/v1/sites/{id}/forms", handler: "forms/create-form", ...BEARER, permission: "forms.create", ...WRITE },
  { route: "GET /api/v1/forms/{formId}", handler: "forms/get-form", ...BEARER, permission: "forms.view", ...READ },
  { route: "PUT /api/v1/forms/{formId}", handler: "forms/update-form", ...BEARER, permission: "forms.edit", ...WRITE },
  { route: "DELETE /api/v1/forms/{formId}", handler: "forms/delete-form", ...BEARER, permission: "forms.delete", ...WRITE },
  { route: "POST /api/v1/forms/{formId}/duplicate", handler: "forms/duplicate-form", ...BEARER, permission: "forms.create", ...WRITE },
  { route: "POST /api/v1/forms/{formId}/publish", handler: "forms/publish-form", ...BEARER, permission: "forms.publish", ...WRITE },
  { route: "POST /api/v1/forms/{formId}/unpublish", handler: "forms/unpublish-form", ...BEARER, permission: "forms.publish", ...WRITE },
  { route: "GET /api/v1/forms/{formId}/submissions", handler: "submissions/list-submissions", ...BEARER, permission: "submissions.view", ...READ },
  // Reads a whole form (up to API Gateway's 30 s); large files go to S3 (lib/export.ts).
  { route: "GET /api/v1/forms/{formId}/submissions/export", handler: "submissions/export-submissions", ...BEARER, permission: "submissions.export", ...WRITE, bucket: "write", memoryMb: 1024, timeoutSeconds: 29 },
  // Importing another service's export (docs/api.md, "Imports"; docs/importing.md): the route reads
  // the whole file (up to 20 MB inflated) and stores its rows in the exports bucket under imports/;
  // the consumer's job writes them. An import is a file upload: a dashboard session's (spec 5.2
  // rule 3). Reading the imports needs what reading the form needs.
  { route: "POST /api/v1/forms/{formId}/import", handler: "imports/start-import", ...SESSION, permission: "submissions.import", ...WRITE, imports: "write", memoryMb: 1024, timeoutSeconds: 29 },
  { route: "GET /api/v1/forms/{formId}/imports", handler: "imports/list-imports", ...BEARER, permission: "forms.view", ...READ },
  { route: "GET /api/v1/forms/{formId}/imports/{importId}", handler: "imports/get-import", ...BEARER, permission: "forms.view", ...READ },
  { route: "GET /api/v1/submissions/{submissionId}", handler: "submissions/get-submission", ...BEARER, permission: "submissions.view", ...READ },
  // Flag/unflag is moderation of collected data and can fire outbound webhooks: it needs the
  // permission that may remove the submission outright (docs/api.md, "Spam moderation").
  { route: "PUT /api/v1/submissions/{submissionId}", handler: "submissions/update-submission", ...BEARER, permission: "submissions.delete", ...WRITE },
  { route: "DELETE /api/v1/submissions/{submissionId}", handler: "submissions/delete-submission", ...BEARER, permission: "submissions.delete", ...WRITE },
  { route: "POST /api/v1/submissions/bulk-delete", handler: "submissions/bulk-delete-submissions", ...BEARER, permission: "submissions.delete", ...WRITE },
  { route: "POST /api/v1/sites/{id}/submissions/erase", handler: "submissions/erase-submissions", ...BEARER, permission: "submissions.delete", ...WRITE, timeoutSeconds: 29 },
  // Triage: status, owner and tags; notes; the timeline; the organization's tags (docs/api.md, "Triage";
  // docs/triage.md). Owner changes beyond taking or giving up one's own lead need submissions.delete
  // (lib/triage.ts). Notes are a person's word: dashboard sessions only.
  { route: "PATCH /api/v1/submissions/{submissionId}", handler: "triage/patch-submission", ...BEARER, permission: "forms.edit", ...WRITE },
  { route: "POST /api/v1/submissions/bulk-update", handler: "triage/bulk-update-submissions", ...BEARER, permission: "forms.edit", ...WRITE },
  { route: "GET /api/v1/submissions/{submissionId}/notes", handler: "triage/list-notes", ...BEARER, permission: "submissions.view", ...READ },
  { route: "POST /api/v1/submissions/{submissionId}/notes", handler: "triage/create-note", ...SESSION, permission: "submissions.view", ...WRITE },
  { route: "PUT /api/v1/submissions/{submissionId}/notes/{noteId}", handler: "triage/update-note", ...SESSION, permission: "submissions.view", ...WRITE },
  { route: "DELETE /api/v1/submissions/{submissionId}/notes/{noteId}", handler: "triage/delete-note", ...SESSION, permission: "submissions.view", ...WRITE },
  { route: "GET /api/v1/submissions/{submissionId}/timeline", handler: "triage/get-timeline", ...BEARER, permission: "submissions.view", ...READ },
  { route: "GET /api/v1/tags", handler: "tags/list-tags", ...BEARER, permission: "submissions.view", ...READ },
  { route: "POST /api/v1/tags", handler: "tags/create-tag", ...BEARER, permission: "forms.edit", ...WRITE },
  { route: "PUT /api/v1/tags/{tagId}", handler: "tags/update-tag", ...BEARER, permission: "forms.edit", ...WRITE },
  { route: "DELETE /api/v1/tags/{tagId}", handler: "tags/delete-tag", ...BEARER, permission: "forms.delete", ...WRITE },
  // A member's read state (docs/api.md, "Unread"): session only, an API key has no member.
  { route: "PUT /api/v1/submissions/{submissionId}/read", handler: "triage/mark-read", ...SESSION, permission: "submissions.view", ...WRITE },
  { route: "DELETE /api/v1/submissions/{submissionId}/read", handler: "triage/mark-unread", ...SESSION, permission: "submissions.view", ...WRITE },
  { route: "POST /api/v1/forms/{formId}/submissions/read", handler: "triage/mark-all-read", ...SESSION, permission: "submissions.view", ...WRITE },

  // Outbound webhooks of a form (docs/api.md, "Outbound webhooks"; docs/outbound-webhooks.md).
  { route: "POST /api/v1/forms/{formId}/outbound-webhooks", handler: "outbound-webhooks/create-outbound-webhook", ...BEARER, permission: "forms.edit", ...WRITE },
  { route: "GET /api/v1/forms/{formId}/outbound-webhooks", handler: "outbound-webhooks/list-outbound-webhooks", ...BEARER, permission: "forms.view", ...READ },
  { route: "PUT /api/v1/forms/{formId}/outbound-webhooks/{endpointId}", handler: "outbound-webhooks/update-outbound-webhook", ...BEARER, permission: "forms.edit", ...WRITE },
  { route: "DELETE /api/v1/forms/{formId}/outbound-webhooks/{endpointId}", handler: "outbound-webhooks/delete-outbound-webhook", ...BEARER, permission: "forms.edit", ...WRITE },
  { route: "GET /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries", handler: "outbound-webhooks/list-outbound-deliveries", ...BEARER, permission: "forms.view", ...READ },
  // Queues the attempt itself (a user action, not a stored record: a direct send is fine).
  { route: "POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries/{deliveryId}/retry", handler: "outbound-webhooks/retry-outbound-delivery", ...BEARER, permission: "forms.edit", ...WRITE, queue: "send" },
  // Queues its one attempt itself, like the retry; paced per endpoint (lib/outbound-webhooks/test-event.ts).
  { route: "POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/test", handler: "outbound-webhooks/test-outbound-webhook", ...BEARER, permission: "forms.edit", ...WRITE, queue: "send" },
  // The deliveries of a submission: ids derived from (submission, endpoint), one BatchGetItem.
  { route: "GET /api/v1/submissions/{submissionId}/deliveries", handler: "outbound-webhooks/list-submission-deliveries", ...BEARER, permission: "forms.view", ...READ },

  // Emails of a submission and their fates; a form's suppressed addresses (docs/email.md). The
  // list holds submitters' addresses, so it needs what reading submissions needs; lifting one
  // takes it off SES's suppression list too.
  { route: "GET /api/v1/submissions/{submissionId}/emails", handler: "emails/list-submission-emails", ...BEARER, permission: "submissions.view", ...READ },
  { route: "GET /api/v1/forms/{formId}/suppressed-recipients", handler: "emails/list-suppressed-recipients", ...BEARER, permission: "submissions.view", ...READ },
  { route: "DELETE /api/v1/forms/{formId}/suppressed-recipients/{recipientId}", handler: "emails/lift-suppression", ...BEARER, permission: "forms.edit", ...WRITE, email: "unsuppress" },

  // The public intake endpoint: no bearer token; the webhook's secret authenticates (spec 5.3).
  { route: "POST /api/v1/incoming/{webhookId}", handler: "intake/receive-submission", ...PUBLIC, ...WRITE },
  { route: "GET /api/v1/incoming/{webhookId}", handler: "intake/ping-webhook", ...PUBLIC, ...READ },
  { route: "OPTIONS /api/v1/incoming/{webhookId}", handler: "intake/preflight", ...PUBLIC, table: "none" },

  { route: "GET /api/v1/api-keys", handler: "api-keys/list-api-keys", ...KEY_ADMIN, ...READ },
  { route: "POST /api/v1/api-keys", handler: "api-keys/create-api-key", ...KEY_ADMIN, ...WRITE },
  { route: "GET /api/v1/api-keys/{id}", handler: "api-keys/get-api-key", ...KEY_ADMIN, ...READ },
  { route: "PUT /api/v1/api-keys/{id}", handler: "api-keys/update-api-key", ...KEY_ADMIN, ...WRITE },
  { route: "DELETE /api/v1/api-keys/{id}", handler: "api-keys/delete-api-key", ...KEY_ADMIN, ...WRITE },

  // The organization's audit log (docs/privacy.md, "Audit log"): owner and admin sessions only.
  { route: "GET /api/v1/audit-log", handler: "audit-log/list-audit-log", ...TEAM_ADMIN, permission: "audit_log.read", ...READ },

  // Everything no other route matches: the JSON 404 envelope, in AWS too.
  { route: "$default", handler: "not-found", ...PUBLIC, table: "none" },
] as const satisfies readonly RouteDef[];

export type RouteKey = (typeof ROUTES)[number]["route"];
/** Keys of the entries that need no credentials (the constant handlers check theirs against it). */
export type PublicRouteKey = Extract<(typeof ROUTES)[number], { auth: "public" }>["route"];
export type RouteOf<K extends RouteKey> = Extract<(typeof ROUTES)[number], { route: K }>;

/** The table entry of `key`, typed as that literal entry (its handler's principal and params follow). */
export function route<K extends RouteKey>(key: K): RouteOf<K> {
  const def = ROUTES.find((r) => r.route === key);
  if (!def) throw new Error(`No route ${key}`);
  return def as RouteOf<K>;
}

/**
 * The intake queue's consumer: not an HTTP route, but declared here too so the CDK stack
 * (infra/intake-pipeline.ts), the local queue poller (infra/local/stack.ts) and the test that
 * every handler file is declared read the same entry. The queue's visibility timeout is derived
 * from `timeoutSeconds` (at least 6x); `batchSize` is both the event source's and the poller's.
 * `batchingWindowSeconds` too: how long a batch may wait to fill (a lone submission is handled
 * about a second after it is queued; under load a batch fills first: docs/performance.md, section 14).
 */
export const QUEUE_CONSUMER = {
  handler: "consumer/process-queue",
  table: "write",
  timeoutSeconds: CONSUMER_TIMEOUT_SECONDS,
  memoryMb: 256,
  batchSize: 10,
  batchingWindowSeconds: 1,
  // Outbound webhook attempts queue their retries (lib/outbound/messages.ts).
  queue: "send",
  // Notification emails (lib/notifications/).
  email: "send",
  // An import's rows (lib/import-job.ts).
  imports: "read",
} as const satisfies Pick<RouteDef, "handler" | "table" | "queue" | "email" | "imports" | "timeoutSeconds" | "memoryMb"> & {
  batchSize: number;
  batchingWindowSeconds: number;
};

/**
 * The bookkeeper: the table stream's submission records, in batches, from Lambda's event source
 * mapping (infra/bookkeeping.ts), kept as counts exactly once (lib/bookkeeping/). Not an HTTP
 * route either; the CDK stack, the local stream follower (infra/local/stream-follower.ts) and the
 * handler test read this entry. `batchSize` is both the event source's and the follower's.
 */
export const BOOKKEEPER = {
  handler: "bookkeeping/keep-books",
  table: "write",
  timeoutSeconds: 30,
  memoryMb: 256,
  batchSize: 100,
} as const satisfies Pick<RouteDef, "handler" | "table" | "timeoutSeconds" | "memoryMb"> & { batchSize: number };

/**
 * The function SES's events reach through EventBridge (infra/notifications.ts creates the
 * configuration set, its event destination and the rule): it records each email's fate
 * (lib/store/sent-emails.ts) and suppressed recipients on their forms
 * (lib/notifications/suppression.ts), so it writes the table.
 */
export const EMAIL_EVENTS = {
  handler: "email-events/record-suppressions",
  table: "write",
  timeoutSeconds: 10,
  memoryMb: 256,
} as const satisfies Pick<RouteDef, "handler" | "table" | "timeoutSeconds" | "memoryMb">;

/**
 * The digest schedule's function (infra/digests.ts runs it every hour from EventBridge Scheduler;
 * infra/local/digest-schedule.ts on a timer locally): sends the members' due digests through SES
 * (lib/digests/run.ts), so it writes the table (each digest's claim, the member's next due time).
 */
export const DIGESTS = {
  handler: "digests/send-digests",
  table: "write",
  email: "send",
  timeoutSeconds: DIGEST_RUN_TIMEOUT_SECONDS,
  memoryMb: 512,
} as const satisfies Pick<RouteDef, "handler" | "table" | "email" | "timeoutSeconds" | "memoryMb">;
