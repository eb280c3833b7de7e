/**
 * Every error code the service answers with, and its HTTP status. docs/api.md lists the same
 * table; test/standalone/unit/errors.test.ts keeps the two in step.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  INVALID_CURSOR: 400,
  RESTRICTED_PERMISSION: 400,
  INVALID_BODY: 400,
  NO_DATA_FIELDS: 400,
  TOO_MANY_FIELDS: 400,
  FIELD_NAME_TOO_LONG: 400,
  FIELD_VALUE_TOO_LONG: 400,
  INVALID_REDIRECT: 400,
  INVALID_IDEMPOTENCY_KEY: 400,
  CAPTCHA_REQUIRED: 400,
  OUTBOUND_WEBHOOK_URL_NOT_ALLOWED: 400,
  EMAIL_LINK_INVALID: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  SESSION_EXPIRED: 401,
  SESSION_ENDED: 401,
  SESSION_COOKIE_AMBIGUOUS: 401,
  API_KEY_EXPIRED: 401,
  API_KEY_REVOKED: 401,
  API_KEY_ORPHANED: 401,
  WEBHOOK_KEY_REQUIRED: 401,
  WEBHOOK_KEY_INVALID: 401,
  SESSION_REQUIRED: 403,
  ROLE_REQUIRED: 403,
  PLAN_REQUIRED: 403,
  PLATFORM_ADMIN_REQUIRED: 403,
  CSRF_ORIGIN_MISMATCH: 403,
  CURRENT_PASSWORD_INVALID: 403,
  INSUFFICIENT_PERMISSION: 403,
  SIGNUP_CLOSED: 403,
  API_KEY_LIMIT_REACHED: 403,
  CANNOT_CHANGE_OWNER: 403,
  WEBHOOK_LIMIT_REACHED: 403,
  OUTBOUND_WEBHOOK_LIMIT_REACHED: 403,
  WEBHOOK_DISABLED: 403,
  SITE_INACTIVE: 403,
  CAPTCHA_FAILED: 403,
  EMAIL_LINK_OTHER_ACCOUNT: 403,
  NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  EMAIL_ALREADY_VERIFIED: 409,
  EMAIL_RECLAIMED: 409,
  CONFLICT: 409,
  API_KEY_NOT_REVOKED: 409,
  SITE_NOT_EMPTY: 409,
  WEBHOOK_NOT_ARCHIVED: 409,
  WEBHOOK_RESTORE_REQUIRED: 409,
  FORM_NOT_ARCHIVED: 409,
  OUTBOUND_WEBHOOK_DISABLED: 409,
  INVITE_INVALID: 410,
  EMAIL_LINK_EXPIRED: 410,
  WEBHOOK_ARCHIVED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  CAPTCHA_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

/** A failure the caller can act on. Domain code throws these; the HTTP layer maps them once. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);
