import type { RouteKey } from "../../functions/routes";
import type { ErrorCode } from "../../lib/errors";
import { IMPORT_OPERATIONS } from "./imports";
import { exportJson } from "./schemas";
import { TRIAGE_OPERATIONS } from "./triage";

/** The routes the document describes: every route of the table but `$default`, the gateway's catch-all 404. */
export type DocumentedRouteKey = Exclude<RouteKey, "$default">;

/**
 * What the OpenAPI document says of each route beyond what the route table and the handler's
 * own schemas give (infra/openapi/): a summary, the error codes the route's own logic answers
 * (the generic ones, authentication, authorization, path ids and body parsing, are derived from
 * the entry in ./document.ts), and the answers that are not a JSON success body.
 */
export interface OperationExtras {
  summary: string;
  /** Codes the route's lib/ code throws (beyond those derived from the entry). */
  errors?: readonly ErrorCode[];
  /** A plain handler outside the middy chain: it answers only what `responses` says. */
  plain?: true;
  /**
   * Answers other than the JSON success body, as OpenAPI response objects by status; a zod schema
   * in a `content` entry is converted like the rest.
   */
  responses?: Record<string, unknown>;
  /** A request body the handler reads itself (intake), as an OpenAPI request body object. */
  requestBody?: unknown;
  /** Parameters the handler reads itself (intake), as OpenAPI parameter objects. */
  parameters?: unknown[];
  description?: string;
  /**
   * A browser's navigation gets each answer as a small HTML page instead, with the same status
   * (lib/intake/browser-answer.ts, docs/intake.md "Browser answers").
   */
  browserPages?: true;
}

const CURSOR: ErrorCode[] = ["INVALID_CURSOR"];

const CORS_HEADER = {
  "Access-Control-Allow-Origin": { description: "`*`: every intake answer, errors and 303 included", schema: { type: "string" } },
};

/** The checks of intake (docs/intake.md, "Check order"), and of the ping that answers as a POST would. */
const WEBHOOK_STATE: ErrorCode[] = ["WEBHOOK_ARCHIVED", "WEBHOOK_DISABLED", "SITE_INACTIVE"];
const INTAKE_ERRORS: ErrorCode[] = [
  ...WEBHOOK_STATE,
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
  "INVALID_BODY",
  "NO_DATA_FIELDS",
  "TOO_MANY_FIELDS",
  "FIELD_NAME_TOO_LONG",
  "FIELD_VALUE_TOO_LONG",
  "WEBHOOK_KEY_REQUIRED",
  "WEBHOOK_KEY_INVALID",
  "INVALID_IDEMPOTENCY_KEY",
  "INVALID_REDIRECT",
  "CAPTCHA_REQUIRED",
  "CAPTCHA_FAILED",
  "CAPTCHA_UNAVAILABLE",
  "IDEMPOTENCY_KEY_REUSED",
];

const anyFields = { type: "object", additionalProperties: true };

export const OPERATIONS: Record<DocumentedRouteKey, OperationExtras> = {
  "POST /api/v1/auth/signup": {
    summary: "Sign up: create an organization, or join one with an invite",
    errors: ["EMAIL_TAKEN", "INVITE_INVALID", "EMAIL_LINK_INVALID", "EMAIL_LINK_EXPIRED", "SIGNUP_CLOSED"],
    description: "With `X-Inlet-Session: cookie` the session is set as an HttpOnly cookie and `token` is left out of the body.",
  },
  "POST /api/v1/auth/login": {
    summary: "Sign in",
    errors: ["INVALID_CREDENTIALS", "RATE_LIMITED"],
    description: "With `X-Inlet-Session: cookie` the session is set as an HttpOnly cookie and `token` is left out of the body.",
  },
  "POST /api/v1/auth/logout": { summary: "Sign out: end the session and clear the session cookie" },
  "GET /api/v1/auth/me": { summary: "The signed-in user, organization, role and permissions" },
  "POST /api/v1/auth/verify-email": {
    summary: "Confirm an address with the emailed token, signed in as the account it was sent for",
    errors: ["EMAIL_LINK_INVALID", "EMAIL_LINK_EXPIRED", "EMAIL_LINK_OTHER_ACCOUNT", "EMAIL_TAKEN"],
    description:
      "A verification link confirms the account's address; an address-change link moves the account to the new address. Either only from a session of the account the link was issued for (docs/accounts.md).",
  },
  "POST /api/v1/auth/verify-email/resend": {
    summary: "Send a new verification link",
    errors: ["EMAIL_ALREADY_VERIFIED", "EMAIL_RECLAIMED", "RATE_LIMITED"],
  },
  "POST /api/v1/auth/reclaim-email": {
    summary: "Send a link that reclaims an address an unverified account holds",
    errors: ["INVITE_INVALID", "RATE_LIMITED"],
    description:
      "Every answer is the same and does the same work: the request is queued, and the link is sent only when an unverified account holds the address.",
  },
  "POST /api/v1/auth/email-links/describe": {
    summary: "What an emailed link is for (its address, account and organization), without using it",
    errors: ["EMAIL_LINK_INVALID", "EMAIL_LINK_EXPIRED"],
  },
  "POST /api/v1/auth/change-email": {
    summary: "Change the account's address: a link goes to the new one, which confirms it",
    errors: ["CURRENT_PASSWORD_INVALID", "EMAIL_TAKEN", "CONFLICT", "RATE_LIMITED"],
  },
  "POST /api/v1/auth/password-reset": {
    summary: "Send a password-reset link (the answer is the same whether or not an account uses the address)",
    errors: ["RATE_LIMITED"],
  },
  "POST /api/v1/auth/password-reset/confirm": {
    summary: "Set a new password with the emailed token: every session ends, the address counts as verified",
    errors: ["EMAIL_LINK_INVALID", "EMAIL_LINK_EXPIRED"],
  },
  "PUT /api/v1/auth/password": {
    summary: "Change the password (the current one required); every other session ends",
    errors: ["CURRENT_PASSWORD_INVALID"],
  },
  "POST /api/v1/auth/logout/others": { summary: "Sign out everywhere else: end every session of the account but this one" },
  "PUT /api/v1/auth/me": { summary: "Change the signed-in person's display name" },
  "GET /api/v1/auth/me/notifications": {
    summary: "The signed-in member's email notifications: time zone, digest time, choices for the organization and each form",
  },
  "PUT /api/v1/auth/me/notifications": {
    summary: "Choose per form or for the organization: an email per submission, a daily or weekly digest, or nothing",
    errors: ["NOT_FOUND"],
    description:
      'Replaces every choice: a form left out follows the organization-wide choice. A form that is not the organization\'s (or is archived) is 404 NOT_FOUND with `details` naming it (docs/notifications.md, "Digests").',
  },

  "GET /api/v1/team": { summary: "List the organization's members", errors: CURSOR },
  "POST /api/v1/team/invites": { summary: "Invite a member" },
  "PUT /api/v1/team/members/{userId}": { summary: "Change a member's role", errors: ["CANNOT_CHANGE_OWNER", "CONFLICT"] },
  "DELETE /api/v1/team/members/{userId}": { summary: "Remove a member", errors: ["CANNOT_CHANGE_OWNER", "CONFLICT"] },

  "PUT /api/v1/organization": { summary: "Rename the organization" },
  "POST /api/v1/organization/access-requests": {
    summary: "Find every submission of the organization that holds an email address (an access request)",
    errors: CURSOR,
  },
  "POST /api/v1/organization/erasures": {
    summary: "Erase every submission of the organization that holds an email address",
    errors: CURSOR,
  },
  "GET /api/v1/audit-log": {
    summary: "The organization's audit log, newest first, filtered by action, actor and time (owner and admin sessions)",
    errors: CURSOR,
  },

  "GET /api/v1/admin/organizations": { summary: "List every organization (platform admins)", errors: CURSOR },
  "PUT /api/v1/admin/organizations/{orgId}": { summary: "Change an organization's plan (platform admins)" },

  "POST /api/v1/sites": { summary: "Create a site" },
  "GET /api/v1/sites": { summary: "List sites", errors: CURSOR },
  "GET /api/v1/sites/{id}": { summary: "Read a site" },
  "PUT /api/v1/sites/{id}": { summary: "Update a site (name, domain, state, reference prefix, captcha)", errors: ["CONFLICT"] },
  "DELETE /api/v1/sites/{id}": { summary: "Delete an empty site", errors: ["SITE_NOT_EMPTY"] },
  "GET /api/v1/sites/{id}/overview": {
    summary: "A site's overview: submissions per day (inbox and spam), busiest sources and forms, failing outbound endpoints",
  },

  "GET /api/v1/sites/{id}/webhooks": { summary: "List a site's inbound webhooks (active or archived)" },
  "POST /api/v1/sites/{id}/webhooks": {
    summary: "Create an inbound webhook: its intake URL and secret (shown once)",
    errors: ["WEBHOOK_LIMIT_REACHED"],
  },
  "GET /api/v1/sites/{id}/webhooks/{webhookId}": { summary: "Read an inbound webhook (secret masked)" },
  "PUT /api/v1/sites/{id}/webhooks/{webhookId}": {
    summary: "Update, enable, disable or restore an inbound webhook",
    errors: ["CONFLICT", "WEBHOOK_NOT_ARCHIVED", "WEBHOOK_RESTORE_REQUIRED"],
  },
  "DELETE /api/v1/sites/{id}/webhooks/{webhookId}": {
    summary: "Archive an inbound webhook, or delete an archived one permanently",
    errors: ["CONFLICT", "WEBHOOK_NOT_ARCHIVED"],
  },
  "POST /api/v1/sites/{id}/webhooks/{webhookId}/rotate-secret": {
    summary: "Replace an inbound webhook's secret (the new one shown once)",
    errors: ["CONFLICT"],
  },

  "GET /api/v1/sites/{id}/forms": { summary: "List a site's forms", errors: CURSOR },
  "POST /api/v1/sites/{id}/forms": { summary: "Create a form", errors: ["SITE_DOMAIN_REQUIRED"] },
  "GET /api/v1/forms/{formId}": { summary: "Read a form with its fields and settings" },
  "PUT /api/v1/forms/{formId}": {
    summary: "Update or restore a form",
    errors: ["CONFLICT", "FORM_NOT_ARCHIVED", "SITE_DOMAIN_REQUIRED"],
  },
  "DELETE /api/v1/forms/{formId}": {
    summary: "Archive a form, or delete an archived one permanently",
    errors: ["CONFLICT", "FORM_NOT_ARCHIVED"],
  },
  "POST /api/v1/forms/{formId}/duplicate": { summary: "Copy a form's schema and settings into a new draft" },
  "POST /api/v1/forms/{formId}/publish": { summary: "Publish a form", errors: ["CONFLICT"] },
  "POST /api/v1/forms/{formId}/unpublish": { summary: "Set a form back to draft", errors: ["CONFLICT"] },
  "GET /api/v1/forms/{formId}/submissions": { summary: "List a form's submissions, newest first, filtered", errors: CURSOR },
  "GET /api/v1/forms/{formId}/submissions/export": {
    summary: "Export a form's submissions as a CSV or JSON file",
    responses: {
      "200": {
        description: "The file itself, `Content-Disposition: attachment`",
        headers: {
          "Content-Disposition": {
            schema: { type: "string" },
            description: 'attachment; filename="<form>-submissions-<date>.<format>"',
          },
          "X-Inlet-Export-Rows": { schema: { type: "string" }, description: "Submissions in the file" },
          "X-Inlet-Export-Bytes": { schema: { type: "string" }, description: "The file's size" },
          "X-Inlet-Export-Filename": { schema: { type: "string" }, description: "The file's name" },
        },
        content: {
          "text/csv": { schema: { type: "string", description: "UTF-8 with a byte order mark, RFC 4180" } },
          "application/json": { schema: exportJson },
        },
      },
      "303": {
        description: "The file is too large for a Lambda answer: its presigned download link, valid 15 minutes",
        headers: {
          Location: { schema: { type: "string" }, description: "The download link" },
          "X-Inlet-Export-Rows": { schema: { type: "string" } },
          "X-Inlet-Export-Bytes": { schema: { type: "string" } },
          "X-Inlet-Export-Filename": { schema: { type: "string" } },
          "X-Inlet-Export-Expires": { schema: { type: "string" }, description: "When the link stops working" },
        },
      },
    },
  },
  "GET /api/v1/submissions/{submissionId}": { summary: "Read a submission" },
  "PUT /api/v1/submissions/{submissionId}/read": {
    summary: "Mark a submission read for the calling member",
    errors: ["CONFLICT"],
  },
  "DELETE /api/v1/submissions/{submissionId}/read": {
    summary: "Mark a submission unread for the calling member",
    errors: ["CONFLICT"],
  },
  "POST /api/v1/forms/{formId}/submissions/read": {
    summary: "Mark every submission of a form read for the calling member",
    errors: ["CONFLICT"],
  },
  "PUT /api/v1/submissions/{submissionId}": { summary: "Flag or unflag a submission as spam" },
  "DELETE /api/v1/submissions/{submissionId}": { summary: "Delete a submission" },
  "POST /api/v1/submissions/bulk-delete": { summary: "Delete several submissions" },
  "POST /api/v1/sites/{id}/submissions/erase": {
    summary: "Erase every submission of a site that holds an email address",
    errors: CURSOR,
  },

  "POST /api/v1/forms/{formId}/outbound-webhooks": {
    summary:
      "Create an outbound webhook (its signing secret shown once) or a chat destination (Slack, Teams, Discord, Google Chat)",
    errors: ["OUTBOUND_WEBHOOK_URL_NOT_ALLOWED", "OUTBOUND_WEBHOOK_LIMIT_REACHED", "DESTINATION_URL_NOT_ALLOWED"],
  },
  "GET /api/v1/forms/{formId}/outbound-webhooks": { summary: "List a form's outbound webhooks and chat destinations" },
  "PUT /api/v1/forms/{formId}/outbound-webhooks/{endpointId}": {
    summary: "Update, enable or disable an outbound webhook or chat destination",
    errors: ["OUTBOUND_WEBHOOK_URL_NOT_ALLOWED", "DESTINATION_URL_NOT_ALLOWED"],
  },
  "DELETE /api/v1/forms/{formId}/outbound-webhooks/{endpointId}": { summary: "Delete an outbound webhook" },
  "GET /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries": {
    summary: "List an outbound webhook's deliveries",
    errors: CURSOR,
  },
  "POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries/{deliveryId}/retry": {
    summary: "Attempt a delivery again now",
    errors: ["CONFLICT", "OUTBOUND_WEBHOOK_DISABLED"],
  },
  "POST /api/v1/forms/{formId}/outbound-webhooks/{endpointId}/test": {
    summary: "Send a test event (a webhook) or test message (a chat destination): one attempt, in its delivery log",
    errors: ["OUTBOUND_WEBHOOK_DISABLED", "RATE_LIMITED", "CONFLICT"],
  },
  "GET /api/v1/submissions/{submissionId}/deliveries": {
    summary: "The outbound deliveries of a submission, one per endpoint of its form",
  },

  "GET /api/v1/submissions/{submissionId}/emails": {
    summary: "The emails sent for a submission, each recipient's fate from SES's events, and its confirmation's state",
  },
  "GET /api/v1/forms/{formId}/suppressed-recipients": {
    summary: "A form's suppressed addresses: its notification addresses, then the submitters it confirmed to",
    errors: CURSOR,
  },
  "DELETE /api/v1/forms/{formId}/suppressed-recipients/{recipientId}": {
    summary: "Lift a suppressed address (off the form and off SES's suppression list)",
    errors: ["SERVICE_UNAVAILABLE"],
  },

  "POST /api/v1/incoming/{webhookId}": {
    summary: "Submit a form to an inbound webhook (the intake URL)",
    description:
      "The webhook's secret authenticates: `?key=`, `X-Webhook-Key`, or an ads payload's key field. A browser navigation (Accept preferring text/html, Sec-Fetch-Mode navigate or absent) gets every answer as an HTML page with the same status. docs/intake.md.",
    browserPages: true,
    errors: INTAKE_ERRORS,
    parameters: [
      { name: "key", in: "query", required: false, schema: { type: "string" }, description: "The webhook's secret" },
      { name: "X-Webhook-Key", in: "header", required: false, schema: { type: "string" }, description: "The webhook's secret" },
      { name: "Idempotency-Key", in: "header", required: false, schema: { type: "string", maxLength: 255 } },
    ],
    requestBody: {
      required: true,
      content: {
        "application/json": { schema: anyFields },
        "application/x-www-form-urlencoded": { schema: anyFields },
        "multipart/form-data": { schema: anyFields },
      },
    },
    responses: {
      "303": {
        description: "To `_redirect` (or `_next`) with `ref=<referenceId>` appended",
        headers: { Location: { schema: { type: "string" } }, ...CORS_HEADER },
      },
    },
  },
  "GET /api/v1/incoming/{webhookId}": { summary: "Check that an inbound webhook accepts submissions", errors: WEBHOOK_STATE },
  "OPTIONS /api/v1/incoming/{webhookId}": {
    summary: "The intake URL's CORS preflight",
    plain: true,
    responses: {
      "204": {
        description: "A constant answer, for any path",
        headers: {
          ...CORS_HEADER,
          "Access-Control-Allow-Methods": { schema: { type: "string" } },
          "Access-Control-Allow-Headers": { schema: { type: "string" } },
        },
      },
    },
  },

  "GET /api/v1/api-keys": { summary: "List the organization's API keys" },
  "POST /api/v1/api-keys": {
    summary: "Create an API key (its secret shown once)",
    errors: ["RESTRICTED_PERMISSION", "API_KEY_LIMIT_REACHED", "CONFLICT"],
  },
  "GET /api/v1/api-keys/{id}": { summary: "Read an API key" },
  "PUT /api/v1/api-keys/{id}": {
    summary: "Rename an API key, change its permissions or rate limit",
    errors: ["RESTRICTED_PERMISSION"],
  },
  "DELETE /api/v1/api-keys/{id}": {
    summary: "Revoke an API key, or delete a revoked one permanently",
    errors: ["API_KEY_NOT_REVOKED"],
  },
  // The triage routes (./triage.ts).
  ...TRIAGE_OPERATIONS,
  // The import routes (./imports.ts).
  ...IMPORT_OPERATIONS,
};
