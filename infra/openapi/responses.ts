import { PERMISSIONS, ROLES } from "../../lib/auth/permissions";
import { PLANS } from "../../lib/config";
import { ERROR_STATUS, type ErrorCode } from "../../lib/errors";
import { FIELD_TYPES } from "../../lib/store/forms";
import { DELIVERY_EVENT_TYPES, DELIVERY_STATUSES } from "../../lib/store/outbound-deliveries";
import { WEBHOOK_SOURCES } from "../../lib/store/webhooks";
import * as z from "../../lib/validation";

/**
 * The success bodies every route answers with, as zod schemas, for the OpenAPI document
 * (infra/openapi/). Each mirrors the view function that builds it (named beside it); the HTTP
 * tests validate every answer they receive against the document, so a view that changes without
 * its schema here fails a test. No Lambda imports infra/openapi/ (.dependency-cruiser.cjs).
 */

const id = z.string();
/** ISO 8601 in UTC; `format` only (zod's own date-time pattern would repeat 300 characters per timestamp). */
const timestamp = z.string().register(z.globalRegistry, { format: "date-time" });
const nullableTimestamp = z.nullable(timestamp);
const count = z.number().check(z.int(), z.minimum(0));
const nextCursor = z.nullable(z.string());

/** The spec's success envelope around `data`. */
const envelope = <T extends z.ZodMiniType>(data: T) => z.strictObject({ success: z.literal(true), data });
const message = z.strictObject({ message: z.string() });

// lib/accounts.ts
const user = z.strictObject({ id, email: z.string(), emailVerified: z.boolean(), name: z.string() });
const organization = z.strictObject({ id, name: z.string(), plan: z.enum(PLANS) });
const role = z.enum(ROLES);
const invitedRole = z.enum(["admin", "member"]);
const authResult = z.strictObject({
  token: z.optional(
    z.string().register(z.globalRegistry, { description: "Absent when the request sent `X-Inlet-Session: cookie`" }),
  ),
  expiresAt: timestamp,
  user,
  organization,
  role,
});
const member = z.strictObject({ id, email: z.string(), name: z.string(), role, createdAt: timestamp });
// lib/admin.ts orgView
const organizationView = z.strictObject({
  id,
  name: z.string(),
  plan: z.enum(PLANS),
  createdAt: timestamp,
  updatedAt: timestamp,
});

// lib/sites.ts siteView
const site = z.strictObject({
  id,
  name: z.string(),
  domain: z.nullable(z.string()),
  isActive: z.boolean(),
  referencePrefix: z.string(),
  captcha: z.nullable(
    z.strictObject({
      provider: z.enum(["score", "challenge"]),
      siteKey: z.string(),
      minScore: z.optional(z.number()),
      hasSecretKey: z.boolean(),
    }),
  ),
  createdAt: timestamp,
  updatedAt: timestamp,
});

// lib/webhooks.ts listView, detailView, updateView, createWebhook
const webhookSource = z.enum(WEBHOOK_SOURCES);
const webhookFields = {
  id,
  name: z.string(),
  source: webhookSource,
  isEnabled: z.boolean(),
  formId: z.nullable(z.string()),
};
const webhookListFields = {
  ...webhookFields,
  submissionCount: count,
  lastReceivedAt: nullableTimestamp,
  archivedAt: nullableTimestamp,
  webhookUrl: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
};
const webhook = z.strictObject(webhookListFields);

// lib/forms.ts listViews, detailView
const formFields = {
  id,
  siteId: id,
  name: z.string(),
  origin: z.enum(["webhook", "builder"]),
  webhookIds: z.array(z.string()),
  fieldCount: count,
  // null only when asked without counts (GET /api/v1/forms/{formId}?counts=false)
  submissionCount: z.nullable(count),
  spamCount: z.nullable(count),
  status: z.enum(["draft", "published"]),
  archivedAt: nullableTimestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
};
const formField = z.strictObject({
  key: z.string(),
  label: z.string(),
  type: z.enum(FIELD_TYPES),
  required: z.boolean(),
  order: z.number(),
});
const formDetail = z.strictObject({
  ...formFields,
  fields: z.array(formField),
  settings: z.strictObject({ notifyEmails: z.array(z.string()), redirectUrl: z.nullable(z.string()) }),
});

// lib/submissions.ts submissionView
const value = z.union([z.string(), z.array(z.string())]);
const submission = z.strictObject({
  id,
  formId: id,
  siteId: id,
  webhookId: id,
  referenceId: z.string(),
  data: z.record(z.string(), value),
  metadata: z.strictObject({
    source: z.string(),
    userAgent: z.nullable(z.string()),
    referer: z.nullable(z.string()),
    ip: z.string(),
    droppedFiles: z.array(z.string()),
    ignoredFields: z.array(z.string()),
    ads: z.optional(z.record(z.string(), z.union([z.string(), z.boolean()]))),
    isTest: z.optional(z.boolean()),
    replyTo: z.optional(z.string()),
    subject: z.optional(z.string()),
  }),
  spam: z.strictObject({
    score: z.number(),
    isSpam: z.boolean(),
    signals: z.array(z.strictObject({ name: z.string(), score: z.number(), detail: z.string() })),
  }),
  releasedAt: nullableTimestamp,
  lead: z.nullable(
    z.strictObject({
      score: z.number(),
      grade: z.enum(["hot", "warm", "cold"]),
      reasons: z.array(z.string()),
      test: z.optional(z.literal(true)),
    }),
  ),
  createdAt: timestamp,
});

// lib/export.ts toJson
export const exportJson = z.strictObject({
  form: z.strictObject({ id, name: z.string(), fields: z.array(formField) }),
  exportedAt: timestamp,
  submissions: z.array(submission),
});

// lib/outbound/endpoints.ts deliveryView, endpointView
const deliveryStatus = z.enum(DELIVERY_STATUSES);
const delivery = z.strictObject({
  id,
  endpointId: id,
  submissionId: z.nullable(id),
  eventType: z.enum(DELIVERY_EVENT_TYPES),
  status: deliveryStatus,
  attemptCount: count,
  attempts: z.array(
    z.strictObject({
      number: z.number(),
      statusCode: z.nullable(z.number()),
      durationMs: z.nullable(z.number()),
      error: z.nullable(z.string()),
      attemptedAt: timestamp,
      nextAttemptAt: nullableTimestamp,
      trigger: z.enum(["automatic", "manual"]),
    }),
  ),
  attemptsOmitted: count,
  inFlight: z.boolean(),
  nextAttemptAt: nullableTimestamp,
  lastError: z.nullable(z.string()),
  deliveredAt: nullableTimestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
});
const endpoint = z.strictObject({
  id,
  formId: id,
  url: z.string(),
  description: z.nullable(z.string()),
  isEnabled: z.boolean(),
  disabledReason: z.nullable(z.string()),
  disabledAt: nullableTimestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
  lastDelivery: z.optional(
    z.nullable(
      z.strictObject({
        id,
        submissionId: z.nullable(id),
        status: deliveryStatus,
        attemptCount: count,
        lastStatusCode: z.nullable(z.number()),
        lastAttemptAt: nullableTimestamp,
        nextAttemptAt: nullableTimestamp,
        createdAt: timestamp,
      }),
    ),
  ),
});

// lib/api-keys.ts apiKeyView, createApiKey
const permission = z.enum(PERMISSIONS);
// lib/accounts.ts me (PUT /auth/me answers what GET /auth/me does)
const meView = z.strictObject({
  user: z.extend(user, {
    emailLost: z.boolean().register(z.globalRegistry, {
      description: "The address's owner took it back (a reclaim): the account holds no address until it changes it",
    }),
  }),
  organization,
  role,
  permissions: z.array(permission),
  platformAdmin: z.boolean(),
});
const apiKey = z.strictObject({
  id,
  name: z.string(),
  keyPrefix: z.string(),
  permissions: z.array(permission),
  rateLimitPerMin: count,
  lastUsedAt: nullableTimestamp,
  expiresAt: nullableTimestamp,
  isRevoked: z.boolean(),
  isOrphaned: z.boolean(),
  createdBy: z.strictObject({ name: z.string(), email: z.string() }),
  createdAt: timestamp,
});

export const ALL_ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The shared error envelope (lib/http/response.ts errorResponse); each operation narrows `code`. */
export const errorEnvelope = z.strictObject({
  success: z.literal(false),
  error: z.strictObject({
    code: z.enum(ALL_ERROR_CODES),
    message: z.string(),
    details: z.optional(z.array(z.strictObject({ path: z.string(), message: z.string() }))),
    requestId: z.optional(z.string()),
  }),
});

/** The intake answers (spec 4.2): the result at the top level, no `data`. */
const intakeResult = z.strictObject({
  success: z.literal(true),
  submissionId: id,
  referenceId: z.string(),
  fieldsMapped: z.array(z.string()),
});
const pingResult = z.strictObject({ success: z.literal(true), webhook: z.string(), status: z.literal("active") });

// lib/overview.ts siteOverview
const isoDay = z.string().register(z.globalRegistry, { format: "date" });
const siteOverview = z.strictObject({
  site: z.strictObject({ id, name: z.string() }),
  from: isoDay,
  to: isoDay,
  days: z.array(z.strictObject({ date: isoDay, inbox: count, spam: count })),
  totals: z.strictObject({
    inbox: count,
    spam: count,
    spamShare: z.number().register(z.globalRegistry, { description: "spam / (inbox + spam), 0 to 1 (0 when nothing came)" }),
  }),
  topSources: z.array(
    z.strictObject({
      webhookId: id,
      name: z.nullable(z.string()).register(z.globalRegistry, { description: "null: the webhook was deleted since" }),
      count,
    }),
  ),
  topForms: z.array(
    z.strictObject({
      formId: id,
      name: z.nullable(z.string()).register(z.globalRegistry, { description: "null: the form was deleted since" }),
      count,
    }),
  ),
  failingDeliveries: z.array(
    z.strictObject({
      endpointId: id,
      formId: id,
      formName: z.nullable(z.string()),
      url: z.string(),
      description: z.nullable(z.string()),
      isEnabled: z.boolean(),
      disabledReason: z.nullable(z.string()),
      deliveryId: id,
      status: z.enum(["retrying", "failed"]),
      statusCode: z.nullable(z.number()),
      error: z.nullable(z.string()),
      failedAt: timestamp,
      nextAttemptAt: nullableTimestamp,
      failingSince: timestamp,
    }),
  ),
});

/** The OpenAPI document itself, loosely: its own schema is the OpenAPI specification's. */
export const openApiDocument = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) });

/**
 * The shapes several answers share, by the name the document's `components.schemas` gives them
 * (and the dashboard's client types: `components["schemas"]["Submission"]`).
 */
export const NAMED_SCHEMAS: Record<string, z.ZodMiniType> = {
  User: user,
  Organization: organization,
  Member: member,
  OrganizationSummary: organizationView,
  Site: site,
  SiteOverview: siteOverview,
  Webhook: webhook,
  FormField: formField,
  FormDetail: formDetail,
  Submission: submission,
  Delivery: delivery,
  OutboundWebhook: endpoint,
  ApiKey: apiKey,
  AuthResult: authResult,
  ExportFile: exportJson,
  Message: message,
  ErrorEnvelope: errorEnvelope,
};

/** Each route's success body (the JSON a 2xx answer carries), by route key. */
export const SUCCESS_BODIES: Record<string, z.ZodMiniType> = {
  "POST /api/v1/auth/signup": envelope(authResult),
  "POST /api/v1/auth/login": envelope(authResult),
  "POST /api/v1/auth/logout": envelope(message),
  "GET /api/v1/auth/me": envelope(meView),
  "POST /api/v1/auth/verify-email": envelope(z.strictObject({ email: z.string(), emailVerified: z.literal(true) })),
  "POST /api/v1/auth/verify-email/resend": envelope(z.strictObject({ email: z.string(), sent: z.boolean() })),
  "POST /api/v1/auth/reclaim-email": envelope(z.strictObject({ email: z.string() })),
  "POST /api/v1/auth/password-reset": envelope(z.strictObject({ email: z.string() })),
  "POST /api/v1/auth/password-reset/confirm": envelope(z.strictObject({ email: z.string() })),
  "PUT /api/v1/auth/password": envelope(message),
  "POST /api/v1/auth/logout/others": envelope(message),
  "PUT /api/v1/auth/me": envelope(meView),
  // lib/email-links.ts describeEmailLink
  "POST /api/v1/auth/email-links/describe": envelope(
    z.strictObject({
      purpose: z.enum(["verify", "change", "reclaim"]),
      email: z.string(),
      expiresAt: timestamp,
      account: z.optional(z.strictObject({ name: z.string() })),
      organization: z.optional(z.strictObject({ name: z.string() })),
      invite: z.optional(z.strictObject({ organization: z.strictObject({ name: z.string() }), role })),
    }),
  ),
  "POST /api/v1/auth/change-email": envelope(z.strictObject({ email: z.string(), sent: z.boolean() })),

  "GET /api/v1/team": envelope(z.strictObject({ members: z.array(member), nextCursor })),
  "POST /api/v1/team/invites": envelope(
    z.strictObject({
      inviteToken: z.string(),
      inviteUrl: z.string(),
      email: z.string(),
      role: invitedRole,
      expiresAt: timestamp,
    }),
  ),
  "PUT /api/v1/team/members/{userId}": envelope(z.strictObject({ member })),
  "DELETE /api/v1/team/members/{userId}": envelope(message),

  "PUT /api/v1/organization": envelope(z.strictObject({ organization })),

  "GET /api/v1/admin/organizations": envelope(z.strictObject({ organizations: z.array(organizationView), nextCursor })),
  "PUT /api/v1/admin/organizations/{orgId}": envelope(z.strictObject({ organization: organizationView })),

  "POST /api/v1/sites": envelope(z.strictObject({ site })),
  "GET /api/v1/sites": envelope(z.strictObject({ sites: z.array(site), nextCursor })),
  "GET /api/v1/sites/{id}": envelope(z.strictObject({ site, contents: z.strictObject({ webhooks: count, forms: count }) })),
  "PUT /api/v1/sites/{id}": envelope(z.strictObject({ site })),
  "DELETE /api/v1/sites/{id}": envelope(message),
  "GET /api/v1/sites/{id}/overview": envelope(siteOverview),

  "GET /api/v1/sites/{id}/webhooks": envelope(z.strictObject({ webhooks: z.array(webhook), archivedCount: count })),
  "POST /api/v1/sites/{id}/webhooks": envelope(
    z.strictObject({ ...webhookFields, secretKey: z.string(), webhookUrl: z.string(), createdAt: timestamp }),
  ),
  "GET /api/v1/sites/{id}/webhooks/{webhookId}": envelope(
    z.strictObject({
      ...webhookListFields,
      secretKey: z.string().register(z.globalRegistry, { description: "Masked: `inlet_whsk_••••••••` and the last four" }),
    }),
  ),
  "PUT /api/v1/sites/{id}/webhooks/{webhookId}": envelope(
    z.strictObject({
      ...webhookFields,
      submissionCount: count,
      lastReceivedAt: nullableTimestamp,
      webhookUrl: z.string(),
      updatedAt: timestamp,
    }),
  ),
  "DELETE /api/v1/sites/{id}/webhooks/{webhookId}": envelope(message),
  "POST /api/v1/sites/{id}/webhooks/{webhookId}/rotate-secret": envelope(z.strictObject({ secretKey: z.string() })),

  "GET /api/v1/sites/{id}/forms": envelope(z.strictObject({ forms: z.array(z.strictObject(formFields)), nextCursor })),
  "POST /api/v1/sites/{id}/forms": envelope(z.strictObject({ form: formDetail })),
  "GET /api/v1/forms/{formId}": envelope(z.strictObject({ form: formDetail })),
  "PUT /api/v1/forms/{formId}": envelope(z.strictObject({ form: formDetail })),
  "DELETE /api/v1/forms/{formId}": envelope(
    z.strictObject({
      message: z.string(),
      unlinkedWebhookIds: z.optional(
        z.array(z.string()).register(z.globalRegistry, { description: "With `permanent=true`: the webhooks unlinked" }),
      ),
    }),
  ),
  "POST /api/v1/forms/{formId}/duplicate": envelope(z.strictObject({ form: formDetail })),
  "POST /api/v1/forms/{formId}/publish": envelope(z.strictObject({ form: formDetail })),
  "POST /api/v1/forms/{formId}/unpublish": envelope(z.strictObject({ form: formDetail })),
  "GET /api/v1/forms/{formId}/submissions": envelope(z.strictObject({ submissions: z.array(submission), nextCursor })),
  // The export answers a file, not an envelope: see EXPORT in ./operations.ts.
  "GET /api/v1/submissions/{submissionId}": envelope(z.strictObject({ submission })),
  "PUT /api/v1/submissions/{submissionId}": envelope(z.strictObject({ submission })),
  "DELETE /api/v1/submissions/{submissionId}": envelope(message),
  "POST /api/v1/submissions/bulk-delete": envelope(z.strictObject({ deleted: count, notFound: z.array(z.string()) })),
  "POST /api/v1/sites/{id}/submissions/erase": envelope(
    z.strictObject({ deleted: count, complete: z.boolean(), cursor: z.nullable(z.string()) }),
  ),

  "POST /api/v1/forms/{formId}/outbound-webhooks": envelope(
    z.strictObject({
      id,
      formId: id,
      url: z.string(),
      description: z.nullable(z.string()),
      isEnabled: z.boolean(),
      signingSecret: z.string(),
      createdAt: timestamp,
    }),
  ),
  "GET /api/v1/forms/{formId}/outbound-webhooks": envelope(z.strictObject({ outboundWebhooks: z.array(endpoint) })),
  "PUT /api/v1/forms/{formId}/outbound-webhooks/{endpointId}": envelope(endpoint),
  "DELETE /api/v1/forms/{formId}/outbound-webhooks/{endpointId}": envelope(message),
  "GET /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries": envelope(
    z.strictObject({ deliveries: z.array(delivery), nextCursor }),
  ),
  "POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries/{deliveryId}/retry": envelope(
    z.strictObject({ delivery }),
  ),
  "POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/test": envelope(z.strictObject({ delivery })),
  "GET /api/v1/submissions/{submissionId}/deliveries": envelope(
    z.strictObject({
      deliveries: z.array(
        z.extend(delivery, {
          endpoint: z.strictObject({ id, url: z.string(), description: z.nullable(z.string()) }),
        }),
      ),
    }),
  ),

  "POST /api/v1/incoming/{webhookId}": intakeResult,
  "GET /api/v1/incoming/{webhookId}": pingResult,

  "GET /api/v1/api-keys": envelope(z.strictObject({ keys: z.array(apiKey) })),
  "POST /api/v1/api-keys": envelope(
    z.strictObject({
      key: z.strictObject({
        id,
        name: z.string(),
        secretKey: z.string(),
        keyPrefix: z.string(),
        permissions: z.array(permission),
        rateLimitPerMin: count,
        expiresAt: nullableTimestamp,
        createdAt: timestamp,
      }),
    }),
  ),
  "GET /api/v1/api-keys/{id}": envelope(z.strictObject({ key: apiKey })),
  "PUT /api/v1/api-keys/{id}": envelope(z.strictObject({ key: apiKey })),
  "DELETE /api/v1/api-keys/{id}": envelope(message),

  "GET /api/v1/openapi.json": openApiDocument,
};
