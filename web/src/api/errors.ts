/**
 * The one table from the API's error codes (docs/api.md, "Errors") to what a person reads.
 * Codes not listed show the API's own message, which is written for people too.
 */
const MESSAGES: Record<string, string> = {
  VALIDATION_ERROR: "Some fields need attention.",
  INVALID_CREDENTIALS: "That email and password do not match an account.",
  SESSION_EXPIRED: "Your session has ended. Please sign in again.",
  SESSION_ENDED: "You were signed out: the password changed, or every other session was signed out. Please sign in again.",
  SESSION_COOKIE_AMBIGUOUS: "Your browser sent two sessions at once. Please sign in again.",
  CURRENT_PASSWORD_INVALID: "This is not your current password.",
  UNAUTHORIZED: "Please sign in.",
  EMAIL_TAKEN: "An account with this email already exists. Sign in instead, or reclaim the address if it was never verified.",
  INVITE_INVALID: "This invite link is unknown, used, expired, or for another email address.",
  SIGNUP_CLOSED: "Sign-up is by invitation only on this service.",
  EMAIL_LINK_INVALID: "This link is not valid any more. Ask for a new one.",
  EMAIL_LINK_EXPIRED: "This link has expired. Ask for a new one.",
  EMAIL_LINK_OTHER_ACCOUNT:
    "This link is for another account. Sign in as that account to confirm it; if you did not create it, take the address back instead.",
  EMAIL_RECLAIMED: "The owner of your address took it back. Change your email address to keep signing in.",
  RATE_LIMITED: "Too many attempts. Please wait a moment and try again.",
  INSUFFICIENT_PERMISSION: "Your role does not allow this.",
  ROLE_REQUIRED: "Your role does not allow this.",
  PLAN_REQUIRED: "Your plan does not include this.",
  CSRF_ORIGIN_MISMATCH: "This request did not come from the dashboard. Reload the page and try again.",
  NOT_FOUND: "This no longer exists, or it belongs to another organization.",
  CONFLICT: "Someone else changed this at the same time. Reload and try again.",
  WEBHOOK_LIMIT_REACHED: "This site already has 50 sources (archived ones count). Permanently delete one to make room.",
  WEBHOOK_NOT_ARCHIVED: "Archive the source first.",
  WEBHOOK_RESTORE_REQUIRED: "Restore the source before enabling it.",
  FORM_NOT_ARCHIVED: "Only an archived form can be deleted permanently (or restored). Archive it first.",
  SITE_DOMAIN_REQUIRED: "A confirmation email needs the site's domain. Set it in the site's settings first.",
  SITE_NOT_EMPTY: "The site still has sources or forms.",
  OUTBOUND_WEBHOOK_URL_NOT_ALLOWED:
    "Inlet sends only to public internet addresses: this URL is not http(s), or its host cannot be found, or it points to a private, loopback or reserved address.",
  OUTBOUND_WEBHOOK_LIMIT_REACHED: "This form already has 10 endpoints and chat destinations. Delete one to add another.",
  DESTINATION_URL_NOT_ALLOWED: "This is not a webhook URL of the chosen platform. Copy the whole URL the platform gave you.",
  OUTBOUND_WEBHOOK_DISABLED: "This endpoint is disabled. Enable it first, then try again.",
  EMAIL_ALREADY_VERIFIED: "Your email address is already verified.",
  API_KEY_LIMIT_REACHED:
    "The organization already has 25 API keys (revoked ones count). Permanently delete a revoked key to make room.",
  API_KEY_NOT_REVOKED: "Revoke the key before deleting it permanently.",
  RESTRICTED_PERMISSION: "No API key may hold that permission: it stays with signed-in owners and admins.",
  CANNOT_CHANGE_OWNER: "The owner's role cannot change, and the owner cannot be removed.",
  PLATFORM_ADMIN_REQUIRED: "Only platform admins can do this.",
  TAG_NAME_TAKEN: "Another tag already has this name (names are compared without case).",
  TAG_LIMIT_REACHED: "The organization already has 50 tags. Delete one to make another.",
  TOO_MANY_TAGS: "A lead carries at most 10 tags. Remove one first.",
  UNKNOWN_TAG: "That tag no longer exists. Reload the page.",
  OWNER_NOT_A_MEMBER: "That person is no longer a member of the organization.",
  INVALID_STATUS_CHANGE: "A won or lost lead cannot go back to New: choose Contacted or Qualified to reopen it.",
  SUBMISSION_IS_SPAM: "A submission in spam cannot be worked: mark it as not spam first.",
  NOTE_LIMIT_REACHED: "This lead already has 200 notes.",
  NOT_NOTE_AUTHOR: "Only the author of a note can edit it.",
  IMPORT_IN_PROGRESS: "An import of this form is still running: wait until it finishes, then import the next file.",
  INTERNAL_ERROR: "Something went wrong on our side. Please try again.",
  SERVICE_UNAVAILABLE: "The service is busy. Please try again in a moment.",
  NETWORK_ERROR: "The service could not be reached. Check your connection and try again.",
};

/** The sentence for an API error, by its code, falling back to the API's own message. */
export const messageFor = (code: string, fallback: string): string => MESSAGES[code] ?? fallback;
