import { GRANTABLE_ROLES, PERMISSIONS, ROLES } from "../../lib/auth/permissions";
import { PLANS } from "../../lib/config";
import { CONFIRMATION_STATES } from "../../lib/emails/submission-emails";
import { ERROR_STATUS, type ErrorCode } from "../../lib/errors";
import type { ExportFile } from "../../lib/export";
import { CONFIRMATION_NOTES, type ConfirmationNote } from "../../lib/notifications/confirmation-notes";
import { EMAIL_KINDS } from "../../lib/notifications/suppression";
import { RETENTION_DAYS } from "../../lib/retention";
import { FAILURE_STATUSES } from "../../lib/store/failing-endpoints";
import { FIELD_TYPES, FORM_ORIGINS, FORM_STATUSES } from "../../lib/store/forms";
import { NOTIFICATION_CHOICES } from "../../lib/store/member-notifications";
import { DELIVERY_EVENT_TYPES, DELIVERY_STATUSES, DELIVERY_TRIGGERS } from "../../lib/store/outbound-deliveries";
import { ENDPOINT_EVENTS, ENDPOINT_KINDS, MIN_GRADES } from "../../lib/store/outbound-endpoints";
import { EMAIL_FATES } from "../../lib/store/sent-emails";
import { JOB_STATUSES, LEAD_GRADES, SUBMISSION_STATUSES, SUPPRESSION_REASONS } from "../../lib/store/shapes";
import { CAPTCHA_PROVIDERS } from "../../lib/store/sites";
import { COMPAT_SERVICES, WEBHOOK_SOURCES } from "../../lib/store/webhooks";
import * as z from "../../lib/validation";
import { type Described, describes } from "./views";

/**
 * The shapes of the answers, as zod schemas, for the OpenAPI document: each view's schema (named
 * beside it), the error envelope, and the shapes `components.schemas` names. They are checked
 * against the views through the routes that answer them (./responses.ts, ./views.ts).
 */

export const id = z.string();
/** ISO 8601 in UTC; `format` only (zod's own date-time pattern would repeat 300 characters per timestamp). */
export const timestamp = z.string().register(z.globalRegistry, { format: "date-time" });
export const nullableTimestamp = z.nullable(timestamp);
export const count = z.number().check(z.int(), z.minimum(0));
export const nextCursor = z.nullable(z.string());

export const message = z.strictObject({ message: z.string() });

// lib/accounts.ts
const user = z.strictObject({ id, email: z.string(), emailVerified: z.boolean(), name: z.string() });
export const organization = z.strictObject({ id, name: z.string(), plan: z.enum(PLANS) });
export const role = z.enum(ROLES);
export const invitedRole = z.enum(GRANTABLE_ROLES);
export const authResult = z.strictObject({
  token: z.optional(
    z.string().register(z.globalRegistry, { description: "Absent when the request sent `X-Inlet-Session: cookie`" }),
  ),
  expiresAt: timestamp,
  user,
  organization,
  role,
});
export const member = z.strictObject({ id, email: z.string(), name: z.string(), role, createdAt: timestamp });
// lib/admin.ts orgView
export const organizationView = z.strictObject({
  id,
  name: z.string(),
  plan: z.enum(PLANS),
  createdAt: timestamp,
  updatedAt: timestamp,
});

// lib/retention.ts: days each kind of submission is kept, null: until deleted (docs/privacy.md, "Retention")
const retentionDays = z.nullable(z.number().check(z.int(), z.minimum(RETENTION_DAYS.min), z.maximum(RETENTION_DAYS.max)));
export const retention = z.strictObject({ inboxDays: retentionDays, spamDays: retentionDays });

// lib/sites.ts siteView
export const site = z.strictObject({
  id,
  name: z.string(),
  domain: z.nullable(z.string()),
  isActive: z.boolean(),
  referencePrefix: z.string(),
  captcha: z.nullable(
    z.strictObject({
      provider: z.enum(CAPTCHA_PROVIDERS),
      siteKey: z.string(),
      minScore: z.optional(z.number()),
      hasSecretKey: z.boolean(),
    }),
  ),
  defaultRetention: retention,
  createdAt: timestamp,
  updatedAt: timestamp,
});

// lib/webhooks.ts listView, detailView, updateView, createWebhook
const webhookSource = z.enum(WEBHOOK_SOURCES);
export const webhookFields = {
  id,
  name: z.string(),
  source: webhookSource,
  isEnabled: z.boolean(),
  formId: z.nullable(z.string()),
  compatibility: z
    .nullable(z.strictObject({ service: z.enum(COMPAT_SERVICES), honeypotField: z.nullable(z.string()) }))
    .register(z.globalRegistry, {
      description: "The service whose control fields intake reads on this webhook (docs/intake.md); null: none",
    }),
};
export const webhookListFields = {
  ...webhookFields,
  submissionCount: count,
  lastReceivedAt: nullableTimestamp,
  archivedAt: nullableTimestamp,
  webhookUrl: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
};
export const webhook = z.strictObject(webhookListFields);

// lib/forms.ts listViews, detailView
export const formFields = {
  id,
  siteId: id,
  name: z.string(),
  origin: z.enum(FORM_ORIGINS),
  webhookIds: z.array(z.string()),
  fieldCount: count,
  // null only when asked without counts (GET /api/v1/forms/{formId}?counts=false)
  submissionCount: z.nullable(count),
  spamCount: z.nullable(count),
  // The inbox per status (docs/triage.md); null with the other counts.
  counts: z.nullable(
    z.strictObject({
      statuses: z.strictObject({ new: count, contacted: count, qualified: count, won: count, lost: count }),
    }),
  ),
  status: z.enum(FORM_STATUSES),
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
// lib/notifications/confirmation.ts confirmationOf (the form's settings.confirmation)
const confirmationSettings = z.strictObject({
  enabled: z.boolean(),
  subject: z.string(),
  message: z.string(),
  senderName: z.nullable(z.string()),
  replyTo: z.nullable(z.string()),
});
// lib/notifications/suppression.ts notificationSuppressions, lib/emails/suppressed-recipients.ts
export const suppressedRecipient = z.strictObject({
  id,
  kind: z.enum([EMAIL_KINDS.notification, EMAIL_KINDS.confirmation]).register(z.globalRegistry, {
    description: "notification: one of the form's notification addresses; confirmation: a submitter the form confirmed to",
  }),
  address: z.string(),
  reason: z.enum(SUPPRESSION_REASONS),
  detail: z.nullable(z.string()),
  at: timestamp,
});
export const formDetail = z.strictObject({
  ...formFields,
  fields: z.array(formField),
  settings: z.strictObject({
    notifyEmails: z.array(z.string()),
    redirectUrl: z.nullable(z.string()),
    confirmation: confirmationSettings,
    forwardOnly: z.boolean().register(z.globalRegistry, {
      description: "Forward-only: a submission's values are deleted once everything it goes to is final (docs/privacy.md)",
    }),
  }),
  retention,
  // lib/form-retention.ts retentionJobView
  retentionJob: z.nullable(
    z.strictObject({
      status: z.enum(JOB_STATUSES),
      examined: count,
      updated: count,
      startedAt: timestamp,
      finishedAt: nullableTimestamp,
    }),
  ),
  suppressedRecipients: z.array(suppressedRecipient),
});

// lib/emails/submission-emails.ts emailView
export const sentEmail = z.strictObject({
  messageId: z.string(),
  kind: z.string(),
  sentAt: timestamp,
  recipients: z.array(
    z.strictObject({
      address: z.nullable(
        z.string().register(z.globalRegistry, { description: "null: the submitter (a confirmation), whose address is not kept" }),
      ),
      status: z.enum(EMAIL_FATES),
      at: timestamp,
      detail: z.nullable(z.string()),
    }),
  ),
});
export const confirmationState = z.union([
  z.strictObject({ status: z.enum(CONFIRMATION_STATES), reason: z.null() }),
  z.strictObject({
    status: z.literal("not-sent"),
    reason: z.enum(["spam", ...Object.values(CONFIRMATION_NOTES).filter((n) => n !== CONFIRMATION_NOTES.sent)] as [
      "spam",
      ...Exclude<ConfirmationNote, "sent">[],
    ]),
  }),
]);

// lib/submissions.ts submissionView
const value = z.union([z.string(), z.array(z.string())]);
export const submission = z.strictObject({
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
    ip: z.nullable(z.string()),
    droppedFiles: z.array(z.string()),
    ignoredFields: z.array(z.string()),
    ads: z.optional(z.record(z.string(), z.union([z.string(), z.boolean()]))),
    isTest: z.optional(z.boolean()),
    replyTo: z.optional(z.string()),
    subject: z.optional(z.string()),
    fromName: z.optional(z.string()),
    cc: z.optional(z.array(z.string())),
    ccIgnored: z.optional(z.number()),
  }),
  spam: z.strictObject({
    score: z.number(),
    isSpam: z.boolean(),
    signals: z.array(z.strictObject({ name: z.string(), score: z.number(), detail: z.string() })),
  }),
  releasedAt: nullableTimestamp,
  expiresAt: z.nullable(
    timestamp.register(z.globalRegistry, {
      description: 'When the form\'s retention deletes it (docs/privacy.md, "Retention"); null: kept until deleted',
    }),
  ),
  lead: z.nullable(
    z.strictObject({
      score: z.number(),
      grade: z.enum(LEAD_GRADES),
      reasons: z.array(z.string()),
      test: z.optional(z.literal(true)),
    }),
  ),
  valuesDeletedAt: nullableTimestamp.register(z.globalRegistry, {
    description: "When a forward-only form's submission had its values deleted (data is then {}); null while kept",
  }),
  createdAt: timestamp,
  // Triage (docs/triage.md).
  status: z.enum(SUBMISSION_STATUSES),
  ownerId: z.nullable(id),
  tags: z.array(id).register(z.globalRegistry, {
    description:
      "Tag ids as stored: a deleted tag's id stays until the submission's tags change (name them from GET /api/v1/tags)",
  }),
  updatedAt: timestamp.register(z.globalRegistry, {
    description: "When its status, owner or tags last changed (createdAt until then): the token of PATCH's updatedAt",
  }),
  noteCount: count,
  imported: z.nullable(
    z.strictObject({ importId: id, source: z.string(), line: count }).register(z.globalRegistry, {
      description:
        "The import that brought it (docs/importing.md): its id, the source service and the file's line; null otherwise",
    }),
  ),
});

// lib/export.ts toJson: a file, not a route's success body, so checked here.
export const exportJson: Described = describes<ExportFile>()(
  z.strictObject({
    form: z.strictObject({ id, name: z.string(), fields: z.array(formField) }),
    exportedAt: timestamp,
    submissions: z.array(submission),
  }),
);

// lib/outbound-webhooks/endpoints.ts deliveryView, endpointView
const deliveryStatus = z.enum(DELIVERY_STATUSES);
export const delivery = z.strictObject({
  id,
  endpointId: id,
  submissionId: z.nullable(id),
  eventType: z.enum(DELIVERY_EVENT_TYPES),
  changeId: z.nullable(id).register(z.globalRegistry, {
    description: "Of a `submission.updated` delivery: the change it announces (the submission's timeline entry); else null",
  }),
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
      trigger: z.enum(DELIVERY_TRIGGERS),
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
export const endpointKind = z.enum(ENDPOINT_KINDS).register(z.globalRegistry, {
  description: "`webhook`: a Standard Webhooks receiver; the others: a chat destination (docs/notifications.md)",
});
export const endpointShownUrl = z.string().register(z.globalRegistry, {
  description: "A webhook's URL; a chat destination's masked (scheme, host, …, its last four characters): its URL is its secret",
});
export const chatOptions = z.nullable(
  z.strictObject({
    minGrade: z.nullable(z.enum(MIN_GRADES)),
    includeFieldValues: z.boolean(),
    maxFields: count,
  }),
);
export const endpointEvents = z.array(z.enum(ENDPOINT_EVENTS)).register(z.globalRegistry, {
  description:
    "The events it receives: `submission.created` (a new submission) and/or `submission.updated` (a submission's status, owner or tags changed); items written before events existed: `submission.created`",
});
export const endpoint = z.strictObject({
  id,
  formId: id,
  kind: endpointKind,
  url: endpointShownUrl,
  description: z.nullable(z.string()),
  chat: chatOptions,
  events: endpointEvents,
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
export const permission = z.enum(PERMISSIONS);
// lib/accounts.ts me (PUT /auth/me answers what GET /auth/me does)
export const meView = z.strictObject({
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
export const apiKey = z.strictObject({
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

const ALL_ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The shared error envelope (lib/http/response.ts errorResponse); each operation narrows `code`. */
const errorEnvelope = z.strictObject({
  success: z.literal(false),
  error: z.strictObject({
    code: z.enum(ALL_ERROR_CODES),
    message: z.string(),
    details: z.optional(z.array(z.strictObject({ path: z.string(), message: z.string() }))),
    requestId: z.optional(z.string()),
  }),
});

/** The intake answers (spec 4.2): the result at the top level, no `data`. */
export const intakeResult = z.strictObject({
  success: z.literal(true),
  submissionId: id,
  referenceId: z.string(),
  fieldsMapped: z.array(z.string()),
});
export const pingResult = z.strictObject({ success: z.literal(true), webhook: z.string(), status: z.literal("active") });

// lib/overview.ts siteOverview
const isoDay = z.string().register(z.globalRegistry, { format: "date" });
export const siteOverview = z.strictObject({
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
      kind: endpointKind,
      url: endpointShownUrl,
      description: z.nullable(z.string()),
      isEnabled: z.boolean(),
      disabledReason: z.nullable(z.string()),
      deliveryId: id,
      status: z.enum(FAILURE_STATUSES),
      statusCode: z.nullable(z.number()),
      error: z.nullable(z.string()),
      failedAt: timestamp,
      nextAttemptAt: nullableTimestamp,
      failingSince: timestamp,
    }),
  ),
});

// lib/member-notifications.ts view (GET and PUT /auth/me/notifications answer it)
const notificationChoice = z.enum(NOTIFICATION_CHOICES);
export const notificationSettingsView = z.strictObject({
  timeZone: z.nullable(z.string()).register(z.globalRegistry, {
    description: "IANA time zone; null until the member saves their notifications (the dashboard proposes the browser's)",
  }),
  digestHour: z.number().check(z.int(), z.minimum(0), z.maximum(23)),
  digestWeekday: z.number().check(z.int(), z.minimum(1), z.maximum(7)),
  organization: z.nullable(notificationChoice).register(z.globalRegistry, {
    description: "For every form without a choice of its own; null: as each form's notifyEmails says",
  }),
  forms: z.array(
    z.strictObject({
      formId: id,
      name: z.string(),
      siteId: id,
      siteName: z.string(),
      choice: z
        .nullable(notificationChoice)
        .register(z.globalRegistry, { description: "The form's own choice; null: the organization's" }),
      effective: z.nullable(notificationChoice).register(z.globalRegistry, {
        description: "What applies to the form; null: the form's notifyEmails decide (listed: an email per submission)",
      }),
      listed: z.boolean().register(z.globalRegistry, { description: "The member's address is in the form's notifyEmails" }),
    }),
  ),
  formsTruncated: z.boolean(),
  emailVerified: z.boolean().register(z.globalRegistry, { description: "Nothing is emailed to the member until it is true" }),
  nextDigests: z.strictObject({ daily: nullableTimestamp, weekly: nullableTimestamp }),
});

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
  Retention: retention,
  SuppressedRecipient: suppressedRecipient,
  SentEmail: sentEmail,
  Submission: submission,
  Delivery: delivery,
  OutboundWebhook: endpoint,
  ApiKey: apiKey,
  AuthResult: authResult,
  ExportFile: exportJson,
  Message: message,
  ErrorEnvelope: errorEnvelope,
  NotificationSettings: notificationSettingsView,
};

// lib/submission-filters.ts listInbox, lib/unread.ts readSubmissionWithUnread: a submission with the caller's read state
export const listedSubmission = z.strictObject({
  ...submission.shape,
  unread: z.nullable(z.boolean()).register(z.globalRegistry, {
    description: "Whether the calling member has not opened it (docs/triage.md); null for an API key",
  }),
});
// lib/unread.ts markRead, markUnread
export const readState = z.strictObject({ submissionId: id, unread: z.boolean() });
