import { STATUS_ATTRIBUTES } from "../lib/store/submission-counts";

/**
 * The attributes each kind of write names, for the table grants that narrow a write to them
 * (infra/table-grants.ts, `only(partition, attributes)`; docs/deployment.md, "Least privilege").
 * IAM judges `dynamodb:Attributes` against every top-level name a request carries: its item's or
 * key's, and those its update and condition expressions read or write. So a set holds what the
 * write changes and what its condition compares (a condition's attribute is one the write could
 * set too: IAM cannot tell the two apart). The key, `pk` and `sk`, is named by every write and
 * added to every set. A name ending in `*` is a prefix (IAM's StringLike).
 *
 * The sets follow lib/store: each is written where a store function writes it, and the local
 * grant check (infra/local/grants.ts) fails any test whose write names an attribute outside them.
 */

/** An organization as signup creates it (lib/store/organizations.ts `organizationItem`). */
export const ORGANIZATION_ITEM = ["gsi1pk", "gsi1sk", "type", "id", "name", "plan", "createdAt", "updatedAt"] as const;
/**
 * A member as signup creates it (`memberItem`). Never `platformAdmin`: only the first-account
 * rule sets it, with a grant of its own (FIRST_ACCOUNT_WRITES).
 */
export const MEMBER_ITEM = [
  "type",
  "userId",
  "orgId",
  "email",
  "name",
  "role",
  "passwordHash",
  "emailVerifiedAt",
  "createdAt",
] as const;
/** An address's claim (`emailItem`); a reclaim's condition compares the holder (`userId`, `verifiedAt`). */
export const EMAIL_CLAIM_ITEM = ["type", "userId", "orgId", "verifiedAt", "formerHolder"] as const;
/** A site as created (lib/store/sites.ts `putSite`). */
export const SITE_ITEM = [
  "type",
  "id",
  "orgId",
  "name",
  "domain",
  "isActive",
  "referencePrefix",
  "captcha",
  "createdAt",
  "updatedAt",
] as const;
/** A site's settings (`saveSiteSettings`): never its counters. */
export const SITE_SETTINGS = [
  "name",
  "domain",
  "isActive",
  "referencePrefix",
  "captcha",
  "updatedAt",
  "defaultRetention",
] as const;
/** An API key as created (lib/store/api-keys.ts `apiKeyItem`). */
export const API_KEY_ITEM = [
  "gsi1pk",
  "gsi1sk",
  "type",
  "id",
  "orgId",
  "keyHash",
  "plan",
  "name",
  "keyPrefix",
  "permissions",
  "customRateLimit",
  "expiresAt",
  "revokedAt",
  "createdBy",
  "creatorRole",
  "createdAt",
  "updatedAt",
  "lastUsedAt",
] as const;
/** What an item listed in its site's index carries besides its own: a webhook, a form. */
const LISTED_ON_SITE = ["gsi1pk", "gsi1sk", "type", "id", "orgId", "siteId", "name"] as const;
/** An inbound webhook as created (lib/store/webhooks.ts `webhookItem`). */
export const WEBHOOK_ITEM = [
  ...LISTED_ON_SITE,
  "source",
  "isEnabled",
  "archivedAt",
  "secretHash",
  "secretLast4",
  "formId",
  "compatibility",
  "submissionCount",
  "lastReceivedAt",
  "createdAt",
  "updatedAt",
] as const;
/** A form as created (lib/store/forms.ts `formItem`), by the builder, a duplicate or intake. */
export const FORM_ITEM = [
  ...LISTED_ON_SITE,
  "origin",
  "createdByWebhookId",
  "status",
  "fields",
  "settings",
  "archivedAt",
  "deletedAt",
  "countedOnSite",
  "retention",
  "createdAt",
  "updatedAt",
] as const;
/** An outbound endpoint as created (lib/store/outbound-endpoints.ts `insertEndpoint`). */
export const ENDPOINT_ITEM = [
  "type",
  "id",
  "formId",
  "orgId",
  "siteId",
  "url",
  "description",
  "isEnabled",
  "signingSecret",
  "disabledReason",
  "disabledAt",
  "createdAt",
  "updatedAt",
  "kind",
  "chat",
  "events",
] as const;
/** The management API's changes of an endpoint (`updateEndpoint`); the consumer disables one on a 410 with the same. */
export const ENDPOINT_CHANGES = [
  "url",
  "description",
  "isEnabled",
  "disabledReason",
  "disabledAt",
  "updatedAt",
  "chat",
  "events",
] as const;
/** A fixed-window counter (lib/store/counters.ts). */
export const COUNTER = ["count", "ttl", "type"] as const;
/**
 * A form's live counts (lib/store/submission-counts.ts, `formCountsUpdate`): what the bookkeeper
 * and moderation add to, and the tombstone's flag their conditions read.
 */
export const FORM_COUNTS = ["type", "inbox", "spam", "gone", ...STATUS_ATTRIBUTES] as const;
/** A form's counts made a tombstone when its purge ends (`formCountsTombstone`). */
export const FORM_COUNTS_TOMBSTONE = ["type", "gone", "ttl"] as const;

/**
 * A form's confirmation to an address as the consumer takes it (lib/store/confirmation-recipients.ts
 * `claimConfirmation`; its condition reads `suppressed`).
 */
export const CONFIRMATION_CLAIM = ["type", "submissionId", "sentAt", "until", "ttl", "suppressed"] as const;
/** A confirmation recipient's suppression, recorded (`recordConfirmationSuppressed`) and lifted (`liftConfirmationSuppression`). */
export const CONFIRMATION_SUPPRESSION = ["suppressed", "address", "gsi1pk", "gsi1sk", "ttl", "until"] as const;

/** A tag as created (lib/store/tags.ts `insertTag`). */
export const TAG_ITEM = ["type", "id", "orgId", "name", "colour", "createdAt", "updatedAt"] as const;
/** A tag name's claim (lib/store/tags.ts). */
export const TAG_NAME_CLAIM = ["type", "tagId"] as const;
