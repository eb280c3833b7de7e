import type { confirmEmailLink, requestEmailChange } from "../../lib/account-address";
import type { changePassword, endOtherSessions, renameSelf } from "../../lib/account-security";
import type {
  changeRole,
  createInvite,
  listMembers,
  login,
  me,
  removeTeamMember,
  resendVerification,
  signup,
} from "../../lib/accounts";
import type { changePlan, listOrganizations } from "../../lib/admin";
import type { changeApiKey, createApiKey, deleteApiKey, getApiKeyDetails, listOrganizationApiKeys } from "../../lib/api-keys";
import type { describeEmailLink } from "../../lib/email-links";
import type { listSubmissionEmails } from "../../lib/emails/submission-emails";
import type { liftSuppression, listSuppressedRecipients } from "../../lib/emails/suppressed-recipients";
import type {
  archiveForm,
  createForm,
  deleteForm,
  duplicateForm,
  editForm,
  listForms,
  readForm,
  setFormStatus,
} from "../../lib/forms";
import type { IntakeOutcome, pingWebhook } from "../../lib/intake/intake";
import type { notificationSettings, saveNotifications } from "../../lib/member-notifications";
import type { renameOrganization } from "../../lib/organization";
import type { createEndpoint, editEndpoint } from "../../lib/outbound-webhooks/endpoint-changes";
import type { listDeliveries, listEndpoints, removeEndpoint } from "../../lib/outbound-webhooks/endpoints";
import type { retryDelivery } from "../../lib/outbound-webhooks/retry";
import type { listSubmissionDeliveries } from "../../lib/outbound-webhooks/submission-deliveries";
import type { sendTestEvent } from "../../lib/outbound-webhooks/test-event";
import type { siteOverview } from "../../lib/overview";
import type { requestPasswordReset, resetPassword } from "../../lib/password-reset";
import type { requestReclaim } from "../../lib/reclaim-request";
import type { createSite, removeSite, siteDetail, sitesOf, updateSite } from "../../lib/sites";
import { EMAIL_LINK_PURPOSES } from "../../lib/store/email-links";
import type { eraseEverywhere, requestAccess } from "../../lib/subject-requests";
import type { listInbox } from "../../lib/submission-filters";
import type { eraseByEmail, moderateSubmission, removeSubmission, removeSubmissions } from "../../lib/submissions";
import type { markAllRead, markRead, markUnread, readSubmissionWithUnread } from "../../lib/unread";
import * as z from "../../lib/validation";
import type {
  archiveWebhook,
  createWebhook,
  deleteWebhookPermanently,
  editWebhook,
  listWebhooks,
  readWebhook,
  rotateWebhookSecret,
} from "../../lib/webhooks";
import { auditLogPage } from "./audit-log";
import { IMPORT_BODIES } from "./imports";
import type { DocumentedRouteKey } from "./operations";
import {
  apiKey,
  authResult,
  chatOptions,
  confirmationState,
  count,
  delivery,
  endpoint,
  endpointEvents,
  endpointKind,
  endpointShownUrl,
  formDetail,
  formFields,
  id,
  intakeResult,
  invitedRole,
  listedSubmission,
  member,
  message,
  meView,
  nextCursor,
  notificationSettingsView,
  nullableTimestamp,
  organization,
  organizationView,
  permission,
  pingResult,
  readState,
  role,
  sentEmail,
  site,
  siteOverview as siteOverviewSchema,
  submission,
  suppressedRecipient,
  timestamp,
  webhook,
  webhookFields,
  webhookListFields,
} from "./schemas";
import { TRIAGE_BODIES } from "./triage";
import { answers, type Described, describes } from "./views";

/**
 * Sign-up's and sign-in's answer (lib/http/session-answer.ts `signedIn`): the session's token,
 * left out of the body when the request asked for the cookie (`X-Inlet-Session: cookie`).
 */
type SignedIn<F extends (...args: never[]) => Promise<{ token: string }>> =
  | Awaited<ReturnType<F>>
  | Omit<Awaited<ReturnType<F>>, "token">;
/** functions/auth/logout.ts answers a constant message. */
type LoggedOut = { message: string };
/** functions/intake/receive-submission.ts: the intake's result at the top level (spec 4.2). */
type IntakeAnswer = { success: true } & IntakeOutcome["result"];

/**
 * Each route's success body (the JSON a 2xx answer carries), by route key, checked by `tsc`
 * against the view its handler answers (./views.ts): the lib/ function the handler returns, named
 * by a type-only import, so a view that changes without its schema here fails `npm run typecheck`.
 * `null`: the route answers no JSON success body of its own (./operations.ts says what it answers).
 */
export const SUCCESS_BODIES: Record<DocumentedRouteKey, Described | null> = {
  "GET /api/v1/audit-log": auditLogPage,
  "POST /api/v1/auth/signup": answers<SignedIn<typeof signup>>()(authResult),
  "POST /api/v1/auth/login": answers<SignedIn<typeof login>>()(authResult),
  "POST /api/v1/auth/logout": answers<LoggedOut>()(message),
  "GET /api/v1/auth/me": answers<typeof me>()(meView),
  "POST /api/v1/auth/verify-email": answers<typeof confirmEmailLink>()(
    z.strictObject({ email: z.string(), emailVerified: z.literal(true) }),
  ),
  "POST /api/v1/auth/verify-email/resend": answers<typeof resendVerification>()(
    z.strictObject({ email: z.string(), sent: z.boolean() }),
  ),
  "POST /api/v1/auth/reclaim-email": answers<typeof requestReclaim>()(z.strictObject({ email: z.string() })),
  "POST /api/v1/auth/password-reset": answers<typeof requestPasswordReset>()(z.strictObject({ email: z.string() })),
  "POST /api/v1/auth/password-reset/confirm": answers<typeof resetPassword>()(z.strictObject({ email: z.string() })),
  "PUT /api/v1/auth/password": answers<typeof changePassword>()(message),
  "POST /api/v1/auth/logout/others": answers<typeof endOtherSessions>()(message),
  "PUT /api/v1/auth/me": answers<typeof renameSelf>()(meView),
  "GET /api/v1/auth/me/notifications": answers<typeof notificationSettings>()(notificationSettingsView),
  "PUT /api/v1/auth/me/notifications": answers<typeof saveNotifications>()(notificationSettingsView),
  "POST /api/v1/auth/email-links/describe": answers<typeof describeEmailLink>()(
    z.strictObject({
      purpose: z.enum(EMAIL_LINK_PURPOSES),
      email: z.string(),
      expiresAt: timestamp,
      account: z.optional(z.strictObject({ name: z.string() })),
      organization: z.optional(z.strictObject({ name: z.string() })),
      invite: z.optional(z.strictObject({ organization: z.strictObject({ name: z.string() }), role })),
    }),
  ),
  "POST /api/v1/auth/change-email": answers<typeof requestEmailChange>()(
    z.strictObject({ email: z.string(), sent: z.boolean() }),
  ),

  "GET /api/v1/team": answers<typeof listMembers>()(z.strictObject({ members: z.array(member), nextCursor })),
  "POST /api/v1/team/invites": answers<typeof createInvite>()(
    z.strictObject({
      inviteToken: z.string(),
      inviteUrl: z.string(),
      email: z.string(),
      role: invitedRole,
      expiresAt: timestamp,
    }),
  ),
  "PUT /api/v1/team/members/{userId}": answers<typeof changeRole>()(z.strictObject({ member })),
  "DELETE /api/v1/team/members/{userId}": answers<typeof removeTeamMember>()(message),

  "PUT /api/v1/organization": answers<typeof renameOrganization>()(z.strictObject({ organization })),
  "POST /api/v1/organization/access-requests": answers<typeof requestAccess>()(
    z.strictObject({
      submissions: z.array(z.strictObject({ ...submission.shape, siteName: z.string(), formName: z.string() })),
      nextCursor,
    }),
  ),
  "POST /api/v1/organization/erasures": answers<typeof eraseEverywhere>()(
    z.strictObject({ deleted: count, complete: z.boolean(), cursor: z.nullable(z.string()) }),
  ),

  "GET /api/v1/admin/organizations": answers<typeof listOrganizations>()(
    z.strictObject({ organizations: z.array(organizationView), nextCursor }),
  ),
  "PUT /api/v1/admin/organizations/{orgId}": answers<typeof changePlan>()(z.strictObject({ organization: organizationView })),

  "POST /api/v1/sites": answers<typeof createSite>()(z.strictObject({ site })),
  "GET /api/v1/sites": answers<typeof sitesOf>()(z.strictObject({ sites: z.array(site), nextCursor })),
  "GET /api/v1/sites/{id}": answers<typeof siteDetail>()(
    z.strictObject({ site, contents: z.strictObject({ webhooks: count, forms: count }) }),
  ),
  "PUT /api/v1/sites/{id}": answers<typeof updateSite>()(z.strictObject({ site })),
  "DELETE /api/v1/sites/{id}": answers<typeof removeSite>()(message),
  "GET /api/v1/sites/{id}/overview": answers<typeof siteOverview>()(siteOverviewSchema),

  "GET /api/v1/sites/{id}/webhooks": answers<typeof listWebhooks>()(
    z.strictObject({ webhooks: z.array(webhook), archivedCount: count }),
  ),
  "POST /api/v1/sites/{id}/webhooks": answers<typeof createWebhook>()(
    z.strictObject({ ...webhookFields, secretKey: z.string(), webhookUrl: z.string(), createdAt: timestamp }),
  ),
  "GET /api/v1/sites/{id}/webhooks/{webhookId}": answers<typeof readWebhook>()(
    z.strictObject({
      ...webhookListFields,
      secretKey: z.string().register(z.globalRegistry, { description: "Masked: `inlet_whsk_••••••••` and the last four" }),
    }),
  ),
  "PUT /api/v1/sites/{id}/webhooks/{webhookId}": answers<typeof editWebhook>()(
    z.strictObject({
      ...webhookFields,
      submissionCount: count,
      lastReceivedAt: nullableTimestamp,
      webhookUrl: z.string(),
      updatedAt: timestamp,
    }),
  ),
  "DELETE /api/v1/sites/{id}/webhooks/{webhookId}": answers<typeof archiveWebhook | typeof deleteWebhookPermanently>()(message),
  "POST /api/v1/sites/{id}/webhooks/{webhookId}/rotate-secret": answers<typeof rotateWebhookSecret>()(
    z.strictObject({ secretKey: z.string() }),
  ),

  "GET /api/v1/sites/{id}/forms": answers<typeof listForms>()(
    z.strictObject({ forms: z.array(z.strictObject(formFields)), nextCursor }),
  ),
  "POST /api/v1/sites/{id}/forms": answers<typeof createForm>()(z.strictObject({ form: formDetail })),
  "GET /api/v1/forms/{formId}": answers<typeof readForm>()(z.strictObject({ form: formDetail })),
  "PUT /api/v1/forms/{formId}": answers<typeof editForm>()(z.strictObject({ form: formDetail })),
  "DELETE /api/v1/forms/{formId}": answers<typeof archiveForm | typeof deleteForm>()(
    z.strictObject({
      message: z.string(),
      unlinkedWebhookIds: z.optional(
        z.array(z.string()).register(z.globalRegistry, { description: "With `permanent=true`: the webhooks unlinked" }),
      ),
    }),
  ),
  "POST /api/v1/forms/{formId}/duplicate": answers<typeof duplicateForm>()(z.strictObject({ form: formDetail })),
  "POST /api/v1/forms/{formId}/publish": answers<typeof setFormStatus>()(z.strictObject({ form: formDetail })),
  "POST /api/v1/forms/{formId}/unpublish": answers<typeof setFormStatus>()(z.strictObject({ form: formDetail })),
  "GET /api/v1/forms/{formId}/submissions": answers<typeof listInbox>()(
    z.strictObject({ submissions: z.array(listedSubmission), nextCursor }),
  ),
  // The export answers a file, not an envelope (./operations.ts).
  "GET /api/v1/forms/{formId}/submissions/export": null,
  "GET /api/v1/submissions/{submissionId}": answers<typeof readSubmissionWithUnread>()(
    z.strictObject({ submission: listedSubmission }),
  ),
  "PUT /api/v1/submissions/{submissionId}": answers<typeof moderateSubmission>()(z.strictObject({ submission })),
  "DELETE /api/v1/submissions/{submissionId}": answers<typeof removeSubmission>()(message),
  "POST /api/v1/submissions/bulk-delete": answers<typeof removeSubmissions>()(
    z.strictObject({ deleted: count, notFound: z.array(z.string()) }),
  ),
  "POST /api/v1/sites/{id}/submissions/erase": answers<typeof eraseByEmail>()(
    z.strictObject({ deleted: count, complete: z.boolean(), cursor: z.nullable(z.string()) }),
  ),
  "PUT /api/v1/submissions/{submissionId}/read": answers<typeof markRead>()(readState),
  "DELETE /api/v1/submissions/{submissionId}/read": answers<typeof markUnread>()(readState),
  "POST /api/v1/forms/{formId}/submissions/read": answers<typeof markAllRead>()(
    z.strictObject({ formId: id, readThrough: nullableTimestamp }),
  ),

  "POST /api/v1/forms/{formId}/outbound-webhooks": answers<typeof createEndpoint>()(
    z.strictObject({
      id,
      formId: id,
      kind: endpointKind,
      url: endpointShownUrl,
      description: z.nullable(z.string()),
      isEnabled: z.boolean(),
      signingSecret: z.nullable(z.string()).register(z.globalRegistry, {
        description: "A webhook's `whsec_` secret, in this answer only; null for a chat destination",
      }),
      chat: chatOptions,
      events: endpointEvents,
      createdAt: timestamp,
    }),
  ),
  "GET /api/v1/forms/{formId}/outbound-webhooks": answers<typeof listEndpoints>()(
    z.strictObject({ outboundWebhooks: z.array(endpoint) }),
  ),
  "PUT /api/v1/forms/{formId}/outbound-webhooks/{endpointId}": answers<typeof editEndpoint>()(endpoint),
  "DELETE /api/v1/forms/{formId}/outbound-webhooks/{endpointId}": answers<typeof removeEndpoint>()(message),
  "GET /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries": answers<typeof listDeliveries>()(
    z.strictObject({ deliveries: z.array(delivery), nextCursor }),
  ),
  "POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries/{deliveryId}/retry": answers<typeof retryDelivery>()(
    z.strictObject({ delivery }),
  ),
  "POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/test": answers<typeof sendTestEvent>()(
    z.strictObject({ delivery }),
  ),
  "GET /api/v1/submissions/{submissionId}/deliveries": answers<typeof listSubmissionDeliveries>()(
    z.strictObject({
      deliveries: z.array(
        z.extend(delivery, {
          endpoint: z.strictObject({ id, kind: endpointKind, url: endpointShownUrl, description: z.nullable(z.string()) }),
        }),
      ),
    }),
  ),

  "GET /api/v1/submissions/{submissionId}/emails": answers<typeof listSubmissionEmails>()(
    z.strictObject({ emails: z.array(sentEmail), confirmation: confirmationState }),
  ),
  "GET /api/v1/forms/{formId}/suppressed-recipients": answers<typeof listSuppressedRecipients>()(
    z.strictObject({ suppressedRecipients: z.array(suppressedRecipient), nextCursor }),
  ),
  "DELETE /api/v1/forms/{formId}/suppressed-recipients/{recipientId}": answers<typeof liftSuppression>()(message),

  "POST /api/v1/incoming/{webhookId}": describes<IntakeAnswer>()(intakeResult),
  "GET /api/v1/incoming/{webhookId}": describes<typeof pingWebhook>()(pingResult),
  // The preflight answers 204 without a body (./operations.ts).
  "OPTIONS /api/v1/incoming/{webhookId}": null,

  "GET /api/v1/api-keys": answers<typeof listOrganizationApiKeys>()(z.strictObject({ keys: z.array(apiKey) })),
  "POST /api/v1/api-keys": answers<typeof createApiKey>()(
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
  "GET /api/v1/api-keys/{id}": answers<typeof getApiKeyDetails>()(z.strictObject({ key: apiKey })),
  "PUT /api/v1/api-keys/{id}": answers<typeof changeApiKey>()(z.strictObject({ key: apiKey })),
  "DELETE /api/v1/api-keys/{id}": answers<typeof deleteApiKey>()(message),
  // The triage routes (./triage.ts).
  ...TRIAGE_BODIES,
  // The import routes (./imports.ts).
  ...IMPORT_BODIES,
};
