import type { DeliveryStatus } from "./types";

/**
 * Every query key of the dashboard, by the API resource it caches. A key is a prefix of the keys
 * of what nests under its resource, as the API's paths nest: invalidating a site refreshes its
 * sources, forms and overview; invalidating a form refreshes its inbox, spam folder and outbound
 * webhooks. A feature invalidates another's data through these keys, never through its code.
 */
export const queryKeys = {
  /** GET /auth/me: who is signed in. */
  me: ["me"] as const,
  /** GET /auth/me on the pages open to anyone, where "signed out" is an answer (null). */
  meOrNobody: ["me", "optional"] as const,
  /** GET /auth/me/notifications: the person's own email notifications. */
  notifications: ["me", "notifications"] as const,
  /** POST /auth/email-links/describe: what an emailed link is for. */
  emailLink: (token: string | undefined) => ["email-link", token] as const,

  sites: {
    /** GET /sites (exact), and the prefix of everything cached about sites. */
    all: ["sites"] as const,
    /** GET /sites/{id} (exact), and the prefix of everything cached about one site. */
    one: (siteId: string) => ["sites", siteId] as const,
    /** GET /sites/{id}/overview. */
    overview: (siteId: string) => ["sites", siteId, "overview"] as const,
  },

  /** A site's inbound webhooks (its sources): GET /sites/{id}/webhooks and below. */
  webhooks: {
    /** The prefix of every list and webhook of the site. */
    ofSite: (siteId: string) => ["sites", siteId, "webhooks"] as const,
    list: (siteId: string, archived: boolean) => ["sites", siteId, "webhooks", { archived }] as const,
    /** Active and archived together (two requests). */
    everyOne: (siteId: string) => ["sites", siteId, "webhooks", "all"] as const,
    one: (siteId: string, webhookId: string) => ["sites", siteId, "webhooks", webhookId] as const,
  },

  forms: {
    /** The prefix of every form's data, inboxes included. */
    all: ["forms"] as const,
    /** GET /sites/{id}/forms (exact: the first 100 active forms), and the prefix of every list of them. */
    ofSite: (siteId: string) => ["sites", siteId, "forms"] as const,
    list: (siteId: string, archived: boolean) => ["sites", siteId, "forms", { archived }] as const,
    /** GET /forms/{formId}?counts=false (exact), and the prefix of its submissions and outbound webhooks. */
    one: (formId: string) => ["forms", formId] as const,
    /** GET /forms/{formId} with its counts. */
    counted: (formId: string) => ["forms", formId, "counted"] as const,
  },

  submissions: {
    /** The prefix of every submission's detail and deliveries. */
    all: ["submissions"] as const,
    /** The prefix of every folder's lists of the form (not their polled first pages). */
    lists: (formId: string) => ["forms", formId, "submissions"] as const,
    /** GET /forms/{formId}/submissions: a folder, filtered, a page at a time. */
    list: (formId: string, folder: "inbox" | "spam", filters: object) =>
      ["forms", formId, "submissions", folder, filters] as const,
    /** The same list's first page alone, polled for what is new. */
    newest: (formId: string, folder: "inbox" | "spam", filters: object) => ["forms", formId, "newest", folder, filters] as const,
    /** GET /submissions/{submissionId}. */
    one: (submissionId: string) => ["submissions", submissionId] as const,
    /** GET /submissions/{submissionId}/notes. */
    notes: (submissionId: string) => ["submissions", submissionId, "notes"] as const,
    /** GET /submissions/{submissionId}/timeline, a page at a time. */
    timeline: (submissionId: string) => ["submissions", submissionId, "timeline"] as const,
    /** GET /forms/{formId} with its counts, read by the inbox for its counts per status. */
    statusCounts: (formId: string) => ["forms", formId, "statuses"] as const,
  },

  outboundWebhooks: {
    /** The prefix of everything cached about a form's outbound webhooks. */
    ofForm: (formId: string) => ["forms", formId, "outbound"] as const,
    /** GET /forms/{formId}/outbound-webhooks. */
    list: (formId: string) => ["forms", formId, "outbound", "endpoints"] as const,
    /** GET /forms/{formId}/outbound-webhooks/{endpointId}/deliveries, filtered by status. */
    deliveries: (formId: string, endpointId: string, status: DeliveryStatus | undefined) =>
      ["forms", formId, "outbound", "log", endpointId, { status }] as const,
    /** GET /submissions/{submissionId}/deliveries. */
    ofSubmission: (submissionId: string) => ["submissions", submissionId, "deliveries"] as const,
  },

  /** A submission's emails and a form's suppressed addresses (docs/email.md). */
  emails: {
    /** GET /submissions/{submissionId}/emails. */
    ofSubmission: (submissionId: string) => ["submissions", submissionId, "emails"] as const,
    /** GET /forms/{formId}/suppressed-recipients, a page at a time. */
    suppressed: (formId: string) => ["forms", formId, "suppressed"] as const,
  },

  /** A form's imports (docs/importing.md). */
  imports: {
    /** GET /forms/{formId}/imports: the newest 20. */
    ofForm: (formId: string) => ["forms", formId, "imports"] as const,
    /** GET /forms/{formId}/imports/{importId}. */
    one: (formId: string, importId: string) => ["forms", formId, "imports", importId] as const,
  },

  /** GET /tags: the organization's tags. */
  tags: ["tags"] as const,
  /** GET /api-keys. */
  apiKeys: ["api-keys"] as const,
  /** GET /team. */
  members: ["team", "members"] as const,
  /** GET /audit-log, by its filters. */
  auditLog: (filters: Record<string, string | undefined>) => ["audit-log", filters] as const,
  /** GET /admin/organizations. */
  organizations: ["admin", "organizations"] as const,
};
