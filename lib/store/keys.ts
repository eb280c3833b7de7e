/**
 * The only module that builds key strings. Every item has generic `pk`/`sk` (and, where an
 * index serves it, `gsi1pk`/`gsi1sk`) attributes; docs/data-model.md lists the access patterns.
 */
export interface Key {
  pk: string;
  sk: string;
}

export const keys = {
  organization: (orgId: string): Key => ({ pk: `ORG#${orgId}`, sk: "META" }),
  /** All organizations, newest last, for the platform admin (GSI1). */
  organizationIndex: (createdAt: string, orgId: string) => ({
    gsi1pk: "ORGS",
    gsi1sk: `${createdAt}#${orgId}`,
  }),
  organizationIndexPartition: () => "ORGS",

  member: (orgId: string, userId: string): Key => ({ pk: `ORG#${orgId}`, sk: `USER#${userId}` }),
  memberPrefix: () => "USER#",

  /** One item per email address: makes emails unique and finds the account at login. */
  email: (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: "EMAIL" }),

  session: (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: "SESSION" }),
  invite: (tokenHash: string): Key => ({ pk: `INVITE#${tokenHash}`, sk: "INVITE" }),

  site: (orgId: string, siteId: string): Key => ({ pk: `ORG#${orgId}`, sk: `SITE#${siteId}` }),
  sitePrefix: () => "SITE#",

  /**
   * An API key, in its own partition so authentication is one strongly consistent GetItem. The
   * key id is derived from the secret's SHA-256 (lib/api-key-auth.ts), so the same item is
   * found from a bearer secret and from a management URL's id.
   */
  apiKey: (keyId: string): Key => ({ pk: `APIKEY#${keyId}`, sk: "APIKEY" }),
  /** An organization's API keys, newest first (GSI1); at most 25 per organization. */
  apiKeyIndex: (orgId: string, createdAt: string, keyId: string) => ({
    gsi1pk: `ORG#${orgId}#APIKEYS`,
    gsi1sk: `${createdAt}#${keyId}`,
  }),
  apiKeyIndexPartition: (orgId: string) => `ORG#${orgId}#APIKEYS`,

  /** A site's running counts (webhooks) and its reference-number sequence live on their own items. */
  siteSequence: (siteId: string): Key => ({ pk: `SITE#${siteId}`, sk: "SEQUENCE" }),

  /** An inbound webhook, in its own partition: the intake endpoint finds it by id alone. */
  webhook: (webhookId: string): Key => ({ pk: `WEBHOOK#${webhookId}`, sk: "WEBHOOK" }),
  /** A site's webhooks, oldest first (GSI1). */
  webhookIndex: (siteId: string, createdAt: string, webhookId: string) => ({
    gsi1pk: `SITE#${siteId}#WEBHOOKS`,
    gsi1sk: `${createdAt}#${webhookId}`,
  }),
  webhookIndexPartition: (siteId: string) => `SITE#${siteId}#WEBHOOKS`,

  /** A form (auto-created by a webhook or built in the builder), found by id alone. */
  form: (formId: string): Key => ({ pk: `FORM#${formId}`, sk: "FORM" }),
  /** A site's forms, oldest first (GSI1). */
  formIndex: (siteId: string, createdAt: string, formId: string) => ({
    gsi1pk: `SITE#${siteId}#FORMS`,
    gsi1sk: `${createdAt}#${formId}`,
  }),
  formIndexPartition: (siteId: string) => `SITE#${siteId}#FORMS`,

  /** A submission, found by id alone; listed per form through GSI1, newest first. */
  submission: (submissionId: string): Key => ({ pk: `SUB#${submissionId}`, sk: "SUB" }),
  submissionIndex: (formId: string, createdAt: string, submissionId: string) => ({
    gsi1pk: `FORM#${formId}#SUBS`,
    gsi1sk: `${createdAt}#${submissionId}`,
  }),
  submissionIndexPartition: (formId: string) => `FORM#${formId}#SUBS`,

  /** Remembers a retried intake POST's first result for 24 hours (`Idempotency-Key`). */
  idempotency: (webhookId: string, keyHash: string): Key => ({ pk: `IDEMP#${webhookId}#${keyHash}`, sk: "IDEMP" }),
  /** An advertising-platform lead id already stored for a webhook (the platform's dedup key). */
  lead: (webhookId: string, leadId: string): Key => ({ pk: `LEAD#${webhookId}#${leadId}`, sk: "LEAD" }),
  /** Same client IP and same data seen recently (the duplicate-content spam signal). */
  duplicate: (hash: string): Key => ({ pk: `DUP#${hash}`, sk: "DUP" }),

  /** A background purge of a form and its submissions (resumable; see lib/purge.ts). */
  purgeJob: (formId: string): Key => ({ pk: `PURGE#${formId}`, sk: "PURGE" }),

  /** The claim that makes the first account of a deployment its platform admin. */
  firstPlatformAdmin: (): Key => ({ pk: "PLATFORM", sk: "FIRST_ADMIN" }),

  /** A fixed-window counter, e.g. failed logins per email per window. */
  counter: (scope: string, subject: string, windowStart: number): Key => ({
    pk: `COUNTER#${scope}#${subject}`,
    sk: `W#${windowStart}`,
  }),
};

/** Where an item's id sits after its key's type prefix, e.g. `SITE#site_x` → `site_x`. */
export const idFromSortKey = (sk: string) => sk.slice(sk.indexOf("#") + 1);
