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
  /** A single-use email link (verify an address, or reclaim one an unverified account holds). */
  emailToken: (tokenHash: string): Key => ({ pk: `VERIFY#${tokenHash}`, sk: "VERIFY" }),

  site: (orgId: string, siteId: string): Key => ({ pk: `ORG#${orgId}`, sk: `SITE#${siteId}` }),
  sitePrefix: () => "SITE#",

  /**
   * An API key, in its own partition so authentication is one strongly consistent GetItem. The
   * key id is derived from the secret's SHA-256 (lib/auth/api-key-auth.ts), so the same item is
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

  /**
   * A site's counts of one UTC day (lib/store/site-days.ts), beside its sequence item: a range of
   * days is one Query (`pk = SITE#<siteId> AND sk BETWEEN DAY#<from> AND DAY#<to>`).
   */
  siteDay: (siteId: string, day: string): Key => ({ pk: `SITE#${siteId}`, sk: `DAY#${day}` }),
  siteDayPartition: (siteId: string) => `SITE#${siteId}`,
  siteDaySortKey: (day: string) => `DAY#${day}`,
  /**
   * An outbound endpoint whose latest attempt failed, in its site's index of failing endpoints
   * (GSI1, sparse: only set while failing), the most recently started failing first.
   */
  failingEndpointIndex: (siteId: string, failingSince: string, endpointId: string) => ({
    gsi1pk: `SITE#${siteId}#FAILING`,
    gsi1sk: `${failingSince}#${endpointId}`,
  }),
  failingEndpointIndexPartition: (siteId: string) => `SITE#${siteId}#FAILING`,

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

  /**
   * An outbound webhook endpoint, in its form's partition: a form's endpoints are one Query
   * (`pk = FORM#<formId> AND begins_with(sk, OUTBOUND#)`), an endpoint one GetItem.
   */
  outboundEndpoint: (formId: string, endpointId: string): Key => ({ pk: `FORM#${formId}`, sk: `OUTBOUND#${endpointId}` }),
  outboundEndpointPrefix: () => "OUTBOUND#",
  outboundEndpointPartition: (formId: string) => `FORM#${formId}`,
  /** How many outbound endpoints a form has (the per-form limit holds under concurrent creates). */
  outboundEndpointCount: (formId: string): Key => ({ pk: `FORM#${formId}`, sk: "OUTBOUND_COUNT" }),
  /** One delivery of one event to one endpoint, found by id alone (queue messages carry the id). */
  outboundDelivery: (deliveryId: string): Key => ({ pk: `DELIVERY#${deliveryId}`, sk: "DELIVERY" }),
  /** An endpoint's deliveries, newest first (GSI1). */
  outboundDeliveryIndex: (endpointId: string, createdAt: string, deliveryId: string) => ({
    gsi1pk: `OUTBOUND#${endpointId}#DELIVERIES`,
    gsi1sk: `${createdAt}#${deliveryId}`,
  }),
  outboundDeliveryIndexPartition: (endpointId: string) => `OUTBOUND#${endpointId}#DELIVERIES`,

  /**
   * The idempotency claim of one side effect of processing a submission (`notify`, ...): claimed
   * with a conditional put before the effect, marked done after (lib/store/actions.ts).
   */
  action: (submissionId: string, name: string): Key => ({ pk: `ACTION#${submissionId}#${name}`, sk: "ACTION" }),
  /**
   * A submission's release from spam: its INSERT on the table stream is what sends an unflagged
   * submission into the intake pipeline (infra/intake-filter.ts, lib/store/moderation.ts).
   */
  release: (submissionId: string): Key => ({ pk: `RELEASE#${submissionId}`, sk: "RELEASE" }),

  /**
   * A form's live counts (inbox, spam), kept by the bookkeeper from the table stream and by
   * moderation (lib/store/submission-counts.ts): in the form's partition, in no index.
   */
  formCounts: (formId: string): Key => ({ pk: `FORM#${formId}`, sk: "COUNTS" }),
  /**
   * A webhook's counts (submissionCount, lastReceivedAt), kept by the bookkeeper, in a partition
   * per site: a site's webhooks' counts are one Query (`pk = WEBHOOK_COUNTS#<siteId>`), read
   * beside the list of its webhooks; a partition of their own, so that what may write them is
   * granted apart from the site's other items.
   */
  webhookCounts: (siteId: string, webhookId: string): Key => ({ pk: `WEBHOOK_COUNTS#${siteId}`, sk: `WEBHOOK#${webhookId}` }),
  webhookCountsPartition: (siteId: string) => `WEBHOOK_COUNTS#${siteId}`,
  /**
   * How far one bookkeeping job (`step`) applied one stream batch, keyed by the batch's first
   * record's eventID (lib/store/bookkeeping.ts): a retried or redelivered batch skips what it
   * says was applied.
   */
  streamCheckpoint: (eventId: string, step: string): Key => ({ pk: `STREAM_BATCH#${eventId}`, sk: `CHECKPOINT#${step}` }),

  /**
   * One search key of one submission (lib/store/search-entries.ts): a partition per form and key
   * (`token` is the key's digest, lib/search-keys.ts), the submissions holding it newest first,
   * so a search is one Query (`pk = FIND#<formId>#<token>`, newest first, the date range on sk).
   * In no index; kept by the bookkeeper from the table stream.
   */
  searchEntry: (formId: string, token: string, createdAt: string, submissionId: string): Key => ({
    pk: `FIND#${formId}#${token}`,
    sk: `${createdAt}#${submissionId}`,
  }),
  searchPartition: (formId: string, token: string) => `FIND#${formId}#${token}`,

  /** A background purge of a form and its submissions (resumable; see lib/purge.ts). */
  purgeJob: (formId: string): Key => ({ pk: `PURGE#${formId}`, sk: "PURGE" }),

  /** The claim that makes the first account of a deployment its platform admin. */
  firstPlatformAdmin: (): Key => ({ pk: "PLATFORM", sk: "FIRST_ADMIN" }),

  /** A fixed-window counter, e.g. failed logins per email per window. */
  counter: (scope: string, subject: string, windowStart: number): Key => ({
    pk: `COUNTER#${scope}#${subject}`,
    sk: `W#${windowStart}`,
  }),

  /**
   * An email Inlet sent, by its SES message id, with each recipient's fate from SES's events
   * (lib/store/sent-emails.ts); an email sent for a submission is in its index (GSI1), oldest first.
   */
  sentEmail: (messageId: string): Key => ({ pk: `MAIL#${messageId}`, sk: "MAIL" }),
  sentEmailIndex: (submissionId: string, sentAt: string, messageId: string) => ({
    gsi1pk: `SUB#${submissionId}#MAILS`,
    gsi1sk: `${sentAt}#${messageId}`,
  }),
  sentEmailIndexPartition: (submissionId: string) => `SUB#${submissionId}#MAILS`,
  /**
   * A form's confirmations to one address (`recipientId`: the address's SHA-256 in base62), in the
   * form's partition: when the last one went (one a day) and whether SES suppresses the address
   * (lib/store/confirmation-recipients.ts).
   */
  confirmationRecipient: (formId: string, recipientId: string): Key => ({ pk: `FORM#${formId}`, sk: `CONFIRM#${recipientId}` }),
  /** A form's suppressed confirmation recipients, the most recently suppressed first (GSI1, sparse). */
  suppressedConfirmationIndex: (formId: string, suppressedAt: string, recipientId: string) => ({
    gsi1pk: `FORM#${formId}#SUPPRESSED`,
    gsi1sk: `${suppressedAt}#${recipientId}`,
  }),
  suppressedConfirmationIndexPartition: (formId: string) => `FORM#${formId}#SUPPRESSED`,
  /**
   * A member whose digest is due (GSI1, sparse: only members who chose a daily or weekly digest),
   * soonest first: the scheduled run reads `gsi1sk <= <now>` (lib/store/member-notifications.ts).
   */
  digestDueIndex: (dueAt: string, orgId: string, userId: string) => ({
    gsi1pk: "DIGESTS",
    gsi1sk: `${dueAt}#${orgId}#${userId}`,
  }),
  digestDueIndexPartition: () => "DIGESTS",
  /**
   * An entry of an organization's audit log (lib/store/audit-log.ts), in the organization's own
   * log partition, newest last by its time: a page newest first is one Query, a time range a key
   * condition.
   */
  auditEntry: (orgId: string, at: string, entryId: string): Key => ({ pk: `AUDIT#${orgId}`, sk: `${at}#${entryId}` }),
  auditPartition: (orgId: string) => `AUDIT#${orgId}`,
  /**
   * A form's retention job (lib/retention-job.ts): re-dates its submissions after a retention
   * change, pass by pass; one per form, replaced by the next change.
   */
  retentionJob: (formId: string): Key => ({ pk: `RETENTION#${formId}`, sk: "RETENTION" }),
  /**
   * A form's import job (lib/import-job.ts) in the form's import partition, by its time-ordered
   * id: the form's imports newest first are one Query. Its lock (`RUNNING`) holds the one running
   * import of the form.
   */
  importJob: (formId: string, importId: string): Key => ({ pk: `IMPORT#${formId}`, sk: `JOB#${importId}` }),
  importPartition: (formId: string) => `IMPORT#${formId}`,
  importJobPrefix: () => "JOB#",
  importLock: (formId: string): Key => ({ pk: `IMPORT#${formId}`, sk: "RUNNING" }),
  /**
   * A forward-only form's submission still holding its values (lib/store/forward-markers.ts): put
   * when the pipeline takes it up, deleted once its values are deleted; its `ttl` is the bound
   * after which the bookkeeper deletes them even while a delivery still retries.
   */
  forwardMarker: (submissionId: string): Key => ({ pk: `FORWARD#${submissionId}`, sk: "FORWARD" }),
  /** An organization's tag (lib/store/tags.ts), in the organization's partition: the set is one Query. */
  tag: (orgId: string, tagId: string): Key => ({ pk: `ORG#${orgId}`, sk: `TAG#${tagId}` }),
  tagPrefix: () => "TAG#",
  /** Claims a tag's name (lowercased) within its organization, so names stay unique under concurrent writes. */
  tagName: (orgId: string, name: string): Key => ({ pk: `ORG#${orgId}`, sk: `TAGNAME#${name.toLowerCase()}` }),
  /** A note on a submission, in the submission's own partition (`pk = SUB#<id>`). */
  note: (submissionId: string, noteId: string): Key => ({ pk: `SUB#${submissionId}`, sk: `NOTE#${noteId}` }),
  notePrefix: () => "NOTE#",
  /**
   * An entry of a submission's timeline (a status, owner or tags change; a note added, edited or
   * deleted), in the submission's partition, in time order: the timeline is one Query newest first.
   * A change entry's INSERT on the table stream is the outbox of the `submission.updated` event.
   */
  timelineEntry: (submissionId: string, at: string, entryId: string): Key => ({
    pk: `SUB#${submissionId}`,
    sk: `TL#${at}#${entryId}`,
  }),
  timelinePrefix: () => "TL#",
  submissionPartition: (submissionId: string) => `SUB#${submissionId}`,
  /**
   * One filter entry of an inbox submission (docs/data-model.md, "Filter entry"): a partition per
   * form and combination of status, owner and tag (`facet`, e.g. `S=new&O=none`), the submissions
   * newest first under the inbox's own sort key. Kept by the bookkeeper from the table stream.
   */
  viewEntry: (formId: string, facet: string, createdAt: string, submissionId: string): Key => ({
    pk: `VIEW#${formId}#${facet}`,
    sk: `${createdAt}#${submissionId}`,
  }),
  viewPartition: (formId: string, facet: string) => `VIEW#${formId}#${facet}`,
  /** Which of a form's inbox submissions one member has opened, as sort-key ranges (lib/store/read-ranges.ts). */
  readRanges: (userId: string, formId: string): Key => ({ pk: `READS#${userId}`, sk: `FORM#${formId}` }),
  readRangesPartition: (userId: string) => `READS#${userId}`,
};

/** Where an item's id sits after its key's type prefix, e.g. `SITE#site_x` → `site_x`. */
export const idFromSortKey = (sk: string) => sk.slice(sk.indexOf("#") + 1);
